// Reading the bed apiserver's audit log from an offset: whole lines only, and a rotated log refused rather than read as
// empty.
import { mkdtemp, rm, writeFile, appendFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { auditEntriesSince, auditLogSize } from './workload-fixtures.js';

const entry = (verb: string, name: string): string =>
  JSON.stringify({ verb, user: { username: 'system:serviceaccount:zk:workload' }, objectRef: { resource: 'configmaps', name } });

describe('auditEntriesSince', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'zkoam-audit-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('reads the whole lines logged after the offset, and leaves a line still being written', async () => {
    await writeFile(join(dir, 'audit.log'), `${entry('create', 'before')}\n`);
    const offset = await auditLogSize({ dir });
    await appendFile(join(dir, 'audit.log'), `${entry('patch', 'after')}\n${entry('delete', 'after').slice(0, 20)}`);
    const entries = await auditEntriesSince({ dir }, offset);
    expect(entries.map((e) => `${e.verb} ${e.objectRef?.name ?? ''}`)).toEqual(['patch after']);
  });

  it('refuses a log shorter than the offset: it was rotated, and what was logged since is partly elsewhere', async () => {
    await writeFile(join(dir, 'audit.log'), `${entry('create', 'a')}\n${entry('create', 'b')}\n`);
    const offset = await auditLogSize({ dir });
    await writeFile(join(dir, 'audit.log'), `${entry('patch', 'c')}\n`);
    await expect(auditEntriesSince({ dir }, offset)).rejects.toThrow(/rotated/);
  });
});
