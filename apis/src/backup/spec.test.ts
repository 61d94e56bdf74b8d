// What a ZookeeperBackup's spec accepts (cron schedules, retention needing one bound, an S3 target), and what the
// contract names: backup ids that sort as their times, the objects' keys, the manifest's shape.
import { describe, expect, it } from 'vitest';
import { crdManifests } from '../crd/manifests.js';
import { backupIdAt, backupManifestSchema, backupTimeOf, chunkObjectName, workloadBackupsPrefix } from './contract.js';
import { backupSpecSchema, CRON_PATTERN } from './spec.js';

const target = { s3: { endpoint: 'http://127.0.0.1:8333', bucket: 'backups', credentialsSecretRef: { name: 's3' } } };
const spec = (extra: Record<string, unknown>): unknown => ({ workloadRef: { name: 'zk' }, target, ...extra });

describe('spec', () => {
  it.each(['0 3 * * *', '*/5 * * * *', '0 0 1 1 MON', '@daily', '@hourly', '0-30/10 1,13 * * 1-5', '*/20 * * * * *'])('accepts the schedule %s', (schedule) => {
    expect(backupSpecSchema.safeParse(spec({ schedule })).success).toBe(true);
  });

  it.each(['', '* * * *', '* * * * * * *', '@sometimes', '0 3 * * * ; rm'])('refuses the schedule %j', (schedule) => {
    expect(backupSpecSchema.safeParse(spec({ schedule })).success).toBe(false);
  });

  it('keeps the newest 7 by default, path-style addressing and the AWS key names', () => {
    expect(backupSpecSchema.parse(spec({}))).toMatchObject({
      retention: { count: 7 },
      suspend: false,
      target: { s3: { region: 'us-east-1', forcePathStyle: true, credentialsSecretRef: { name: 's3', accessKeyIdKey: 'AWS_ACCESS_KEY_ID', secretAccessKeyKey: 'AWS_SECRET_ACCESS_KEY' } } },
    });
  });

  it('takes a PersistentVolumeClaim target, and exactly one target: zod and the CRD\'s CEL rule alike', () => {
    expect(backupSpecSchema.safeParse(spec({ target: { pvc: { claimName: 'backups', prefix: 'zk' } } })).success).toBe(true);
    expect(backupSpecSchema.safeParse(spec({ target: { ...target, pvc: { claimName: 'backups' } } })).success).toBe(false);
    expect(backupSpecSchema.safeParse(spec({ target: {} })).success).toBe(false);
    expect(backupSpecSchema.safeParse(spec({ target: { pvc: { claimName: 'Not_A_Name' } } })).success).toBe(false);
    const crd = crdManifests().find((candidate) => candidate.spec.names.kind === 'ZookeeperBackup');
    const properties = crd?.spec.versions[0]?.schema.openAPIV3Schema.properties?.['spec']?.properties;
    expect(properties?.['target']?.['x-kubernetes-validations']?.map((rule) => rule.rule)).toEqual(['has(self.s3) != has(self.pvc)']);
  });

  it('refuses a retention without a bound, a bad bucket, endpoint or prefix', () => {
    expect(backupSpecSchema.safeParse(spec({ retention: {} })).success).toBe(false);
    for (const s3 of [{ bucket: 'No_Caps' }, { endpoint: 'ftp://x' }, { prefix: '/leading' }, { prefix: 'trailing/' }, { prefix: 'a//b' }]) {
      expect(backupSpecSchema.safeParse(spec({ target: { s3: { ...target.s3, ...s3 } } })).success).toBe(false);
    }
  });

  it('is refused by the CRD with the same schedule pattern, and a retention without a bound by a CEL rule', () => {
    const crd = crdManifests().find((candidate) => candidate.spec.names.kind === 'ZookeeperBackup');
    const properties = crd?.spec.versions[0]?.schema.openAPIV3Schema.properties?.['spec']?.properties;
    expect(properties?.['schedule']?.pattern).toBe(CRON_PATTERN.source);
    expect(properties?.['retention']?.['x-kubernetes-validations']?.map((rule) => rule.rule)).toEqual(['has(self.count) || has(self.maxAgeHours)']);
  });
});

describe('contract', () => {
  it('names a backup by its start, to the millisecond, so that ids sort as times', () => {
    expect(backupIdAt(new Date('2026-11-29T03:00:07.891Z'))).toBe('20261129T030007.891Z');
    expect([backupIdAt(new Date('2026-12-01T00:00:00Z')), backupIdAt(new Date('2026-11-30T23:59:59Z'))].sort()).toEqual(['20261130T235959.000Z', '20261201T000000.000Z']);
    expect(backupTimeOf('20261129T030007.891Z')).toEqual(new Date('2026-11-29T03:00:07.891Z'));
    expect(backupTimeOf('manifest.json')).toBeUndefined();
  });

  it('puts a workload\'s backups under <prefix>/<namespace>/<workload>/', () => {
    expect(workloadBackupsPrefix('zk/prod', 'team-a', 'zk')).toBe('zk/prod/team-a/zk/');
    expect(workloadBackupsPrefix(undefined, 'team-a', 'zk')).toBe('team-a/zk/');
    expect(chunkObjectName(3)).toBe('znodes-00003.jsonl.gz');
  });

  it('refuses a manifest of another format or with a malformed checksum', () => {
    const manifest = {
      format: 'zk-oam.dev/backup/v1',
      id: '20261129T030007.891Z',
      workload: { namespace: 'a', name: 'zk', uid: 'u' },
      zxid: '0x100000004',
      startedAt: '2026-11-29T03:00:07Z',
      finishedAt: '2026-11-29T03:00:09Z',
      znodes: 1,
      objects: [{ name: chunkObjectName(0), znodes: 1, sizeBytes: 40, sha256: 'a'.repeat(64) }],
    };
    expect(backupManifestSchema.safeParse(manifest).success).toBe(true);
    expect(backupManifestSchema.safeParse({ ...manifest, format: 'other/v2' }).success).toBe(false);
    expect(backupManifestSchema.safeParse({ ...manifest, objects: [{ ...manifest.objects[0], sha256: 'xyz' }] }).success).toBe(false);
  });
});
