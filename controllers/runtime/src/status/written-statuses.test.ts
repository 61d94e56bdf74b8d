// A status written by this process is read until the cache has caught up with it, and no longer.
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { comparableVersion, WrittenStatuses } from './written-statuses.js';

const schema = z.object({ phase: z.string().optional() });
const widget = (resourceVersion: string, status: unknown, uid = 'u-1') => ({ metadata: { namespace: 'ns', name: 'w', uid, resourceVersion }, status });

describe('WrittenStatuses', () => {
  it('reads the cached status when this process wrote none', () => {
    expect(new WrittenStatuses(schema).freshest(widget('10', { phase: 'Idle' }))).toEqual({ phase: 'Idle' });
  });

  it('reads its own write while the cached object is older than it', () => {
    const statuses = new WrittenStatuses(schema);
    statuses.remember(widget('12', { phase: 'Running' }));
    // A finalizer's update (11) reached the cache, the status write (12) not yet.
    expect(statuses.freshest(widget('11', { phase: 'Idle' }))).toEqual({ phase: 'Running' });
    expect(statuses.size).toBe(1);
  });

  it('reads the cache again, and lets go of the write, once the cache has caught up with it', () => {
    const statuses = new WrittenStatuses(schema);
    statuses.remember(widget('12', { phase: 'Running' }));
    expect(statuses.freshest(widget('12', { phase: 'Running' }))).toEqual({ phase: 'Running' });
    expect(statuses.size).toBe(0);
    statuses.remember(widget('12', { phase: 'Running' }));
    expect(statuses.freshest(widget('15', { phase: 'Failed' }))).toEqual({ phase: 'Failed' });
  });

  it('does not read the write of an object since deleted and made again under its name', () => {
    const statuses = new WrittenStatuses(schema);
    statuses.remember(widget('12', { phase: 'Running' }, 'u-1'));
    expect(statuses.freshest(widget('3', {}, 'u-2'))).toEqual({});
  });

  it('trusts the cache when a version cannot be compared, and keeps nothing of a reply without one', () => {
    const statuses = new WrittenStatuses(schema);
    statuses.remember(widget('12', { phase: 'Running' }));
    expect(statuses.freshest(widget('opaque', { phase: 'Idle' }))).toEqual({ phase: 'Idle' });
    statuses.remember({});
    statuses.remember(widget('x7', { phase: 'Running' }));
    expect(statuses.size).toBe(0);
  });

  it('forgets an object that is gone', () => {
    const statuses = new WrittenStatuses(schema);
    statuses.remember(widget('12', { phase: 'Running' }));
    statuses.forget({ namespace: 'ns', name: 'w' });
    expect(statuses.size).toBe(0);
  });
});

describe('comparableVersion', () => {
  it('reads a decimal resourceVersion as a number, beyond 2^53 too', () => {
    expect(comparableVersion('9007199254740993')).toBe(9007199254740993n);
    expect([comparableVersion(undefined), comparableVersion(''), comparableVersion('012'), comparableVersion('1e3')]).toEqual([undefined, undefined, undefined, undefined]);
  });
});
