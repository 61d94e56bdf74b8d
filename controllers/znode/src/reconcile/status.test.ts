// The status a finding gives, whole: Ready and Synced with the reasons the troubleshooting guide explains, the path
// claimed only once it is this znode's, and what the last look found kept while the workload is away.
import { describe, expect, it } from 'vitest';
import { nextStatus } from './status.js';
import type { ServedFinding } from './verdict.js';

const now = new Date('2026-11-28T10:00:00.500Z');
const context = { generation: 2, now };
const at = '2026-11-28T10:00:00Z';
const synced = { type: 'Synced', status: 'True', reason: 'Synced', message: 'the last reconcile did all it had to do', observedGeneration: 2, lastTransitionTime: at };
const connection = { hosts: 'zk-client.prod.svc.cluster.local:2181', chroot: '/kafka', connectString: 'zk-client.prod.svc.cluster.local:2181/kafka', clientPort: 2181, secureClientPort: undefined, tls: false };
const served: ServedFinding = { kind: 'Served', path: '/kafka', connection, principal: 'sasl:znode-u', pending: undefined };

describe('nextStatus', () => {
  it('is Available with the path, the connect string and the principal once every member knows the user', () => {
    expect(nextStatus(undefined, served, context)).toEqual({
      observedGeneration: 2,
      path: '/kafka',
      exists: true,
      connectString: 'zk-client.prod.svc.cluster.local:2181/kafka',
      principal: 'sasl:znode-u',
      conditions: [
        { type: 'Ready', status: 'True', reason: 'Available', message: '/kafka exists; clients connect with zk-client.prod.svc.cluster.local:2181/kafka', observedGeneration: 2, lastTransitionTime: at },
        synced,
      ],
    });
  });

  it('says CredentialsPending while the members restart onto the user', () => {
    const status = nextStatus(undefined, { ...served, pending: 'members restarting: zk-0 not yet' }, context);
    expect(status.conditions?.[0]).toMatchObject({ type: 'Ready', status: 'False', reason: 'CredentialsPending', message: 'members restarting: zk-0 not yet' });
    expect(status.path).toBe('/kafka');
  });

  it('keeps what the last look found while the workload is missing', () => {
    const before = nextStatus(undefined, served, context);
    const status = nextStatus(before, { kind: 'Waiting', reason: 'WorkloadNotFound', message: 'ZookeeperWorkload zk does not exist in namespace prod' }, { generation: 2, now: new Date('2026-11-28T10:05:00Z') });
    expect(status).toMatchObject({ path: '/kafka', exists: true, connectString: connection.connectString });
    expect(status.conditions?.[0]).toMatchObject({ status: 'False', reason: 'WorkloadNotFound', lastTransitionTime: '2026-11-28T10:05:00Z' });
    expect(status.conditions?.[1]).toEqual(synced);
  });

  it('claims no path in conflict with an earlier znode', () => {
    const claim = { name: 'first', uid: 'u0', path: '/kafka', createdAt: at, served: true };
    const status = nextStatus(nextStatus(undefined, served, context), { kind: 'Conflict', claim, message: 'path /kafka overlaps /kafka' }, context);
    expect(status.path).toBeUndefined();
    expect(status.connectString).toBeUndefined();
    expect(status.conditions?.[0]).toMatchObject({ status: 'False', reason: 'PathConflict' });
  });

  it('keeps the whole status but Ready for a spec that does not validate', () => {
    const before = nextStatus(undefined, served, context);
    const status = nextStatus(before, { kind: 'Invalid', message: 'spec.path: bad' }, { generation: 3, now });
    expect(status).toMatchObject({ observedGeneration: 2, path: '/kafka' });
    expect(status.conditions?.[0]).toMatchObject({ status: 'False', reason: 'InvalidSpec', observedGeneration: 3 });
  });
});
