// Whether a status says something new: compared as the API would store it, through the kind's schema.
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { sameStatus, storedStatus } from './stored-status.js';

const schema = z.object({
  phase: z.string().optional(),
  leader: z.string().optional(),
  members: z.array(z.object({ pod: z.string(), synced: z.boolean() })).optional(),
  replicas: z.int().default(0),
});
const status = { phase: 'Running', leader: 'zk-1', members: [{ pod: 'zk-0', synced: true }], replicas: 3 };
const object = (value: unknown) => ({ metadata: { name: 'zk' }, status: value });

describe('storedStatus', () => {
  it('reads the status through the schema, and a malformed or missing one as none', () => {
    expect(storedStatus(schema, object({ phase: 'Running' }))).toEqual({ phase: 'Running', replicas: 0 });
    expect(storedStatus(schema, object({ phase: 7 }))).toBeUndefined();
    expect(storedStatus(schema, { metadata: { name: 'zk' } })).toBeUndefined();
  });
});

describe('sameStatus', () => {
  it('sees a member that fell out of sync', () => {
    expect(sameStatus(schema, status, { ...status, members: [{ pod: 'zk-0', synced: false }] })).toBe(false);
  });

  it('sees a changed leader, key order aside', () => {
    expect(sameStatus(schema, status, { replicas: 3, members: status.members, leader: 'zk-1', phase: 'Running' })).toBe(true);
    expect(sameStatus(schema, status, { ...status, leader: 'zk-0' })).toBe(false);
  });

  it('takes an undefined field for an absent one, and a default for the value it gives', () => {
    const stored = storedStatus(schema, object({ phase: 'Running' }));
    expect(sameStatus(schema, stored, { phase: 'Running', leader: undefined, replicas: 0 })).toBe(true);
  });

  it('treats no stored status as different from any status', () => {
    expect(sameStatus(schema, undefined, { replicas: 0 })).toBe(false);
  });

  it('parses a status found the same once per stored status, and still sees the next change', () => {
    let parses = 0;
    const counting = z.preprocess((value) => ((parses += 1), value), schema);
    const stored = { ...status };
    const next = { ...status, leader: 'zk-1' };
    expect(sameStatus(counting, stored, next)).toBe(true);
    const afterFirst = parses;
    expect(sameStatus(counting, stored, { ...next })).toBe(true);
    expect(parses).toBe(afterFirst);
    expect(sameStatus(counting, stored, { ...next, leader: 'zk-2' })).toBe(false);
    expect(sameStatus(counting, stored, { ...next, phase: 'Failed' })).toBe(false);
    expect(sameStatus(schema, stored, { ...next, replicas: 4 })).toBe(false);
  });
});
