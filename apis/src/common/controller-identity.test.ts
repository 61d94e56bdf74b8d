import { describe, expect, it } from 'vitest';
import { controllerIdentity, type ControllerRole } from './controller-identity.js';

// The values are remembered by clusters that ran an earlier release (managed fields, Leases and their RBAC, NATS
// consumers): this table is what they were, and a change to it is a breaking change.
const RELEASED: ReadonlyArray<[ControllerRole, string, string]> = [
  ['workload', 'zk-oam-workload', 'zookeeper.zkoam.dev/workload'],
  ['scale', 'zk-oam-scale', 'zookeeper.zkoam.dev/scale'],
  ['rolling', 'zk-oam-rolling', 'zookeeper.zkoam.dev/rolling'],
  ['appconfig', 'zk-oam-appconfig', 'core.oam.dev/appconfig'],
  ['znode', 'zk-oam-znode', 'zookeeper.zkoam.dev/znode'],
  ['backup', 'zk-oam-backup', 'zookeeper.zkoam.dev/backup'],
];

describe('controllerIdentity', () => {
  it.each(RELEASED)('gives the %s controller the names it has always had', (role, name, reportingController) => {
    expect(controllerIdentity(role)).toEqual({ name, fieldManager: name, leaderElectionLease: name, natsDurable: name, reportingController });
  });
});
