// The target's store for a run: its credentials and CA read from the Secrets the target names (never cached, never
// logged), then the S3 client for it.
import { S3_CREDENTIAL_KEYS, type ZookeeperBackup } from '@zk-oam/apis';
import { readSecretValue } from '@zk-oam/runtime';
import type { ObjectStore } from '../store/object-store.js';
import type { BackupReconcilerDependencies } from './dependencies.js';

/** Bounds each request to the store. */
const REQUEST_TIMEOUT_MS = 30_000;

export async function openTargetStore(deps: Pick<BackupReconcilerDependencies, 'client' | 'openStore'>, backup: ZookeeperBackup): Promise<ObjectStore> {
  const namespace = backup.metadata.namespace ?? '';
  const { s3 } = backup.spec.target;
  const credentials = s3.credentialsSecretRef;
  const secret = { namespace, name: credentials.name };
  const accessKeyId = await readSecretValue(deps.client, secret, credentials.accessKeyIdKey ?? S3_CREDENTIAL_KEYS.accessKeyId);
  const secretAccessKey = await readSecretValue(deps.client, secret, credentials.secretAccessKeyKey ?? S3_CREDENTIAL_KEYS.secretAccessKey);
  const ca = s3.caSecretRef === undefined ? undefined : await readSecretValue(deps.client, { namespace, name: s3.caSecretRef.name }, s3.caSecretRef.key);
  return deps.openStore({
    endpoint: s3.endpoint,
    region: s3.region,
    bucket: s3.bucket,
    forcePathStyle: s3.forcePathStyle,
    accessKeyId,
    secretAccessKey,
    ca,
    requestTimeoutMs: REQUEST_TIMEOUT_MS,
  });
}
