// An S3 target's store, for the backup controller that writes to it and the restore that reads from it: its
// credentials and CA read from the Secrets the target names, in the namespace of the object naming it (never cached,
// never logged), then the S3 client for it.
import { S3_CREDENTIAL_KEYS, type S3Target } from '@zk-oam/apis';
import { readSecretValue, type KubeClient } from '@zk-oam/runtime';
import type { ObjectStore } from './object-store.js';
import type { S3StoreOptions } from './s3.js';

/** Bounds each request to a store (S3, or a claim's volume server). */
export const STORE_REQUEST_TIMEOUT_MS = 30_000;

export type SecretReader = Pick<KubeClient, 'request'>;

export async function openS3Target(client: SecretReader, namespace: string, s3: S3Target, open: (options: S3StoreOptions) => ObjectStore | Promise<ObjectStore>): Promise<ObjectStore> {
  const credentials = s3.credentialsSecretRef;
  const secret = { namespace, name: credentials.name };
  const accessKeyId = await readSecretValue(client, secret, credentials.accessKeyIdKey ?? S3_CREDENTIAL_KEYS.accessKeyId);
  const secretAccessKey = await readSecretValue(client, secret, credentials.secretAccessKeyKey ?? S3_CREDENTIAL_KEYS.secretAccessKey);
  const ca = s3.caSecretRef === undefined ? undefined : await readSecretValue(client, { namespace, name: s3.caSecretRef.name }, s3.caSecretRef.key);
  return open({
    endpoint: s3.endpoint,
    region: s3.region,
    bucket: s3.bucket,
    forcePathStyle: s3.forcePathStyle,
    accessKeyId,
    secretAccessKey,
    ca,
    requestTimeoutMs: STORE_REQUEST_TIMEOUT_MS,
  });
}
