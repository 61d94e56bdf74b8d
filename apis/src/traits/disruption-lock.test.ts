// The disruption lock's names, as the scale and rolling controllers both take it.
import { describe, expect, it } from 'vitest';
import { disruptionLeaseName, disruptionLockHolder } from './disruption-lock.js';

describe('the disruption lock', () => {
  it('is one Lease per workload, named after it', () => {
    expect(disruptionLeaseName('zk')).toBe('zk-disruption');
  });

  it('is held by the operation: the trait kind and name, so scale and rolling traits of one name never collide', () => {
    expect(disruptionLockHolder('scale', 'zk')).toBe('scale/zk');
    expect(disruptionLockHolder('rolling', 'zk')).toBe('rolling/zk');
  });
});
