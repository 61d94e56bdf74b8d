// The ZooKeeper superuser password reconfig authenticates with, from the superuser Secret the contract names. Read from the API when a step needs it, never cached or logged.
import { SUPERUSER_SECRET_KEYS, superuserSecretName, type ZookeeperWorkload } from '@zk-oam/apis';
import { coreResources, isApiError, objectPath, type KubeClient } from '@zk-oam/runtime';
import { z } from 'zod';
import { SuperuserSecretError } from './errors.js';

const PASSWORD_KEY = SUPERUSER_SECRET_KEYS.password;
const secretSchema = z.looseObject({ data: z.record(z.string(), z.string()).optional() });

export async function readSuperPassword(client: Pick<KubeClient, 'request'>, workload: ZookeeperWorkload): Promise<string> {
  const namespace = workload.metadata.namespace ?? '';
  const name = superuserSecretName(workload);
  let raw: unknown;
  try {
    raw = await client.request('GET', objectPath(coreResources.secret, { namespace, name }));
  } catch (error) {
    if (isApiError(error, 404)) throw new SuperuserSecretError(name, 'does not exist');
    throw error;
  }
  const encoded = secretSchema.safeParse(raw).data?.data?.[PASSWORD_KEY];
  if (encoded === undefined) throw new SuperuserSecretError(name, `has no key ${PASSWORD_KEY}`);
  return Buffer.from(encoded, 'base64').toString('utf8');
}
