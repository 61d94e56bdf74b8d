// A TLS-only workload (spec.tls.client Only) opens no plain client port, and this controller observes members on it:
// the trait does not bind to such a workload, so that its StatefulSet keeps rolling natively.
import { CLIENT_TLS_MODES, hasPlainClientPort } from '@zk-oam/apis';
import type { KubeObject } from '@zk-oam/runtime';
import { z } from 'zod';

const workloadTlsSchema = z.looseObject({
  spec: z.looseObject({ tls: z.looseObject({ client: z.enum(CLIENT_TLS_MODES) }).optional() }).optional(),
});

/** Why the trait does not bind to this workload, or undefined when it may. */
export function tlsOnlyRefusal(workload: KubeObject): string | undefined {
  const client = workloadTlsSchema.safeParse(workload).data?.spec?.tls?.client ?? 'Disabled';
  if (hasPlainClientPort({ client })) return undefined;
  return (
    `ZookeeperWorkload ${workload.metadata.name} serves clients over TLS only (spec.tls.client Only); rolling it is not ` +
    'supported yet: this controller observes members on the plain client port. Not bound: its StatefulSet rolls natively'
  );
}
