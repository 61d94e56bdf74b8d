// What a workload's spec.tls means to this controller. Members of a TLS-only workload (spec.tls.client Only) are
// observed over TLS on the secure port, trusting the CA in the workload's member TLS Secret. A leader handover by
// reconfig is not possible there: ZooKeeper takes a member back into the voters only when its server line carries a
// client address, and a client address opens a plain client port on the member. Such a trait does not bind.
import { CLIENT_TLS_MODES, fourLetterWordEndpoint, type ClientTlsMode, type LeaderHandover } from '@zk-oam/apis';
import type { KubeObject } from '@zk-oam/runtime';
import { z } from 'zod';

const workloadTlsSchema = z.looseObject({
  spec: z.looseObject({ tls: z.looseObject({ client: z.enum(CLIENT_TLS_MODES) }).optional() }).optional(),
});

/** The workload's client TLS mode, as the workload controller renders it (absent: Disabled). */
export function clientTlsOf(workload: KubeObject): ClientTlsMode {
  return workloadTlsSchema.safeParse(workload).data?.spec?.tls?.client ?? 'Disabled';
}

/** Why the trait does not bind to this workload, or undefined when it may. */
export function tlsOnlyRefusal(workload: KubeObject, leaderHandover: LeaderHandover): string | undefined {
  if (leaderHandover !== 'Reconfigure' || !fourLetterWordEndpoint({ client: clientTlsOf(workload) }).secure) return undefined;
  return (
    `ZookeeperWorkload ${workload.metadata.name} serves clients over TLS only (spec.tls.client Only); a leader handover by ` +
    'reconfig is not supported there yet (ZooKeeper takes a member back into the voters only with a client address in its ' +
    'server line, which would open a plain client port): use leaderHandover Election. Not bound: its StatefulSet rolls natively'
  );
}
