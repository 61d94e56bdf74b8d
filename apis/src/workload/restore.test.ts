// What spec.restoreFrom accepts, and the CRD's rules: a backup id or latest, immutable, set at creation only.
import { describe, expect, it } from 'vitest';
import { crdManifests } from '../crd/manifests.js';
import { RESTORE_FROM_AT_CREATION_RULE, restoreFromSchema } from './restore.js';

const target = { s3: { endpoint: 'http://127.0.0.1:8333', bucket: 'backups', credentialsSecretRef: { name: 's3' } } };

describe('restoreFrom', () => {
  it('takes latest by default, or a backup id', () => {
    expect(restoreFromSchema.parse({ workload: { name: 'zk' }, target }).backup).toBe('latest');
    expect(restoreFromSchema.safeParse({ workload: { name: 'zk' }, target, backup: '20261129T030007.891Z' }).success).toBe(true);
  });

  it.each(['newest', '20261129T030007Z', '20261129T030007.891Z/', ''])('refuses the backup %j', (backup) => {
    expect(restoreFromSchema.safeParse({ workload: { name: 'zk' }, target, backup }).success).toBe(false);
  });

  it('takes a PersistentVolumeClaim target, and exactly one target, as a ZookeeperBackup does', () => {
    expect(restoreFromSchema.safeParse({ workload: { name: 'zk' }, target: { pvc: { claimName: 'backups', prefix: 'pvc' } } }).success).toBe(true);
    const both = restoreFromSchema.safeParse({ workload: { name: 'zk' }, target: { ...target, pvc: { claimName: 'backups' } } });
    expect(both.error?.issues.map((issue) => issue.message)).toEqual(['target needs exactly one of s3 and pvc']);
    expect(restoreFromSchema.safeParse({ workload: { name: 'zk' }, target: {} }).success).toBe(false);
    expect(restoreFromSchema.safeParse({ workload: { name: 'zk' }, target: { pvc: { claimName: 'Not_A_Claim' } } }).success).toBe(false);
  });

  it('has the CRD refuse a target with both kinds or neither (CEL), before the controller sees it', () => {
    const crd = crdManifests().find((candidate) => candidate.spec.names.kind === 'ZookeeperWorkload');
    const restoreFrom = crd?.spec.versions[0]?.schema.openAPIV3Schema.properties?.['spec']?.properties?.['restoreFrom'];
    expect(restoreFrom?.properties?.['target']?.['x-kubernetes-validations']).toEqual([{ rule: 'has(self.s3) != has(self.pvc)', message: 'target needs exactly one of s3 and pvc' }]);
    expect(restoreFrom?.properties?.['target']?.properties?.['pvc']?.properties?.['claimName']).toBeDefined();
  });

  it('is immutable in the CRD, and can be set only when the workload is created', () => {
    const crd = crdManifests().find((candidate) => candidate.spec.names.kind === 'ZookeeperWorkload');
    const spec = crd?.spec.versions[0]?.schema.openAPIV3Schema.properties?.['spec'];
    expect(spec?.properties?.['restoreFrom']?.['x-kubernetes-validations']?.map((rule) => rule.rule)).toEqual(['self == oldSelf']);
    expect(spec?.['x-kubernetes-validations']?.map((rule) => rule.rule)).toContain(RESTORE_FROM_AT_CREATION_RULE.rule);
    expect(spec?.properties?.['restoreFrom']?.properties?.['backup']?.pattern).toBe('^(latest|\\d{8}T\\d{6}\\.\\d{3}Z)$');
  });
});
