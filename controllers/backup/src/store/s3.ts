// The S3 target through the AWS SDK's S3 client (any S3-compatible server: path-style addressing by default, the
// region only signs). A CA from the target's Secret is trusted on top of nothing else: with one, only it. Checksums
// are sent and checked only where S3 requires them, which every S3-compatible server understands; the backup's own
// manifest carries a SHA-256 per object anyway.
import { Agent } from 'node:https';
import { DeleteObjectCommand, GetObjectCommand, ListObjectsV2Command, NoSuchKey, PutObjectCommand, S3Client, S3ServiceException } from '@aws-sdk/client-s3';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import { ObjectStoreError, type ObjectStore } from './object-store.js';

export interface S3StoreOptions {
  readonly endpoint: string;
  readonly region: string;
  readonly bucket: string;
  readonly forcePathStyle: boolean;
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
  /** PEM; the system's CAs when undefined. */
  readonly ca: string | undefined;
  /** Bounds each request. */
  readonly requestTimeoutMs: number;
}

function failure(operation: string, key: string, error: unknown): ObjectStoreError {
  const code = error instanceof S3ServiceException ? error.name : undefined;
  return new ObjectStoreError(operation, key, { cause: error, code });
}

export function s3Store(options: S3StoreOptions): ObjectStore {
  const httpsAgent = options.ca === undefined ? undefined : new Agent({ ca: options.ca, keepAlive: true });
  const client = new S3Client({
    endpoint: options.endpoint,
    region: options.region,
    forcePathStyle: options.forcePathStyle,
    credentials: { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey },
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    maxAttempts: 3,
    requestHandler: new NodeHttpHandler({ ...(httpsAgent === undefined ? {} : { httpsAgent }), requestTimeout: options.requestTimeoutMs, connectionTimeout: options.requestTimeoutMs }),
  });
  const Bucket = options.bucket;
  return {
    location: (key) => `s3://${Bucket}/${key}`,
    async put(key, body, contentType) {
      try {
        await client.send(new PutObjectCommand({ Bucket, Key: key, Body: body, ContentType: contentType, ContentLength: body.length }));
      } catch (error) {
        throw failure('PutObject', key, error);
      }
    },
    async get(key) {
      try {
        const answer = await client.send(new GetObjectCommand({ Bucket, Key: key }));
        return answer.Body === undefined ? Buffer.alloc(0) : Buffer.from(await answer.Body.transformToByteArray());
      } catch (error) {
        if (error instanceof NoSuchKey) return undefined;
        throw failure('GetObject', key, error);
      }
    },
    async list(prefix) {
      const keys: string[] = [];
      let token: string | undefined;
      try {
        do {
          const page = await client.send(new ListObjectsV2Command({ Bucket, Prefix: prefix, ContinuationToken: token }));
          for (const object of page.Contents ?? []) if (object.Key !== undefined) keys.push(object.Key);
          token = page.IsTruncated === true ? page.NextContinuationToken : undefined;
        } while (token !== undefined);
      } catch (error) {
        throw failure('ListObjectsV2', prefix, error);
      }
      return keys.sort();
    },
    async delete(keys) {
      // One DeleteObject per key: DeleteObjects needs a checksum header that not every S3-compatible server takes, and
      // retention deletes a few objects at a time.
      for (const key of keys) {
        try {
          await client.send(new DeleteObjectCommand({ Bucket, Key: key }));
        } catch (error) {
          throw failure('DeleteObject', key, error);
        }
      }
    },
    close() {
      client.destroy();
      httpsAgent?.destroy();
    },
  };
}
