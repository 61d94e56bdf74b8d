// When clients are let in to a restoring workload, and the Ready condition until then.
import type { RestoreStatus } from '@zk-oam/apis';
import { describe, expect, it } from 'vitest';
import { buildClientService } from '../render/client-service.js';
import { minimalWorkload, withSpec } from '../render/test-workloads.js';
import { clientsAdmitted, withRestore } from './gate.js';

const restoring = withSpec(minimalWorkload(), (spec) => ({
  ...spec,
  restoreFrom: { workload: { name: 'source' }, backup: 'latest', target: { s3: { endpoint: 'http://s3:8333', bucket: 'backups', region: 'us-east-1', forcePathStyle: true, credentialsSecretRef: { name: 's3', accessKeyIdKey: 'AWS_ACCESS_KEY_ID', secretAccessKeyKey: 'AWS_SECRET_ACCESS_KEY' } } } },
}));
const context = { generation: 1, now: new Date('2026-11-29T04:00:00Z') };
const ready = { type: 'Ready', status: 'True', reason: 'QuorumHealthy', message: 'ok', lastTransitionTime: '2026-11-29T03:00:00Z', observedGeneration: 1 } as const;
const done: RestoreStatus = { phase: 'Restored', backup: '20261129T030000.000Z', zxid: '0x2', znodes: 3 };

describe('clientsAdmitted', () => {
  it('admits clients of a workload that restores nothing, and of one whose restore is recorded as done only', () => {
    expect(clientsAdmitted(minimalWorkload())).toBe(true);
    expect(clientsAdmitted(restoring)).toBe(false);
    expect(clientsAdmitted({ ...restoring, status: { restore: { phase: 'Restoring' } } })).toBe(false);
    expect(clientsAdmitted({ ...restoring, status: { restore: done } })).toBe(true);
  });

  it('renders the client Service without a selector (no endpoints) while clients are kept out', () => {
    expect(buildClientService(restoring, false).spec?.selector).toBeUndefined();
    expect(buildClientService(restoring, true).spec?.selector).toEqual({ 'app.kubernetes.io/component': 'server', 'app.kubernetes.io/instance': 'zk', 'app.kubernetes.io/name': 'zookeeper' });
  });
});

describe('withRestore', () => {
  it('leaves the status of a workload that restores nothing as it is', () => {
    const status = { conditions: [ready] };
    expect(withRestore(status, undefined, true, context)).toBe(status);
  });

  it('keeps Ready False with the refusal\'s reason and message', () => {
    const status = withRestore({ conditions: [ready] }, { phase: 'Refused', reason: 'BackupCorrupted', message: 'znodes-00000.jsonl.gz has SHA-256 ...' }, false, context);
    expect(status.restore).toMatchObject({ phase: 'Refused' });
    expect(status.conditions).toEqual([{ type: 'Ready', status: 'False', reason: 'BackupCorrupted', message: 'znodes-00000.jsonl.gz has SHA-256 ...', lastTransitionTime: '2026-11-29T04:00:00Z', observedGeneration: 1 }]);
  });

  it('keeps Ready False in the look that finished the restore, until the client Service lets clients in', () => {
    const finishing = withRestore({ conditions: [ready] }, done, false, context);
    expect(finishing.conditions?.[0]).toMatchObject({ status: 'False', reason: 'Restoring', message: 'backup 20261129T030000.000Z restored (zxid 0x2, 3 znodes); clients are let in next' });
    expect(withRestore({ conditions: [ready] }, done, true, context)).toEqual({ conditions: [ready], restore: done });
  });
});
