// One ConfigMap's or Secret's data, read from the API when a step needs it (Secrets are never cached by this
// controller); undefined when it does not exist.
import { coreResources, isApiError, objectPath, type KubeClient, type ObjectKey } from '@zk-oam/runtime';
import { z } from 'zod';

const dataSchema = z.looseObject({
  metadata: z.looseObject({ resourceVersion: z.string().optional() }),
  data: z.record(z.string(), z.string()).optional(),
});

export interface StoredData {
  readonly resourceVersion: string | undefined;
  /** As stored: base64 values for a Secret. */
  readonly data: Readonly<Record<string, string>>;
}

export async function readData(client: Pick<KubeClient, 'request'>, kind: 'configMap' | 'secret', key: ObjectKey): Promise<StoredData | undefined> {
  let raw: unknown;
  try {
    raw = await client.request('GET', objectPath(coreResources[kind], key));
  } catch (error) {
    if (isApiError(error, 404)) return undefined;
    throw error;
  }
  const parsed = dataSchema.parse(raw);
  return { resourceVersion: parsed.metadata.resourceVersion, data: parsed.data ?? {} };
}

export function decodeBase64(value: string | undefined): string | undefined {
  return value === undefined ? undefined : Buffer.from(value, 'base64').toString('utf8');
}
