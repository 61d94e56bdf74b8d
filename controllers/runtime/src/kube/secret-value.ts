// One value of a Secret, read from the API when a step needs it: never cached, never logged.
import { z } from 'zod';
import { isApiError, type KubeClient } from './client.js';
import { coreResources, objectPath } from './resource.js';

/** The Secret is missing or lacks the key: the step cannot go on until someone fixes it. */
export class SecretValueError extends Error {
  override readonly name = 'SecretValueError';
  constructor(secret: string, problem: string) {
    super(`Secret ${secret} ${problem}`);
  }
}

const secretSchema = z.looseObject({ data: z.record(z.string(), z.string()).optional() });

export async function readSecretValue(client: Pick<KubeClient, 'request'>, secret: { namespace: string; name: string }, key: string): Promise<string> {
  let raw: unknown;
  try {
    raw = await client.request('GET', objectPath(coreResources.secret, secret));
  } catch (error) {
    if (isApiError(error, 404)) throw new SecretValueError(secret.name, 'does not exist');
    throw error;
  }
  const encoded = secretSchema.safeParse(raw).data?.data?.[key];
  if (encoded === undefined) throw new SecretValueError(secret.name, `has no key ${key}`);
  return Buffer.from(encoded, 'base64').toString('utf8');
}
