// What a client reaching the ensemble through its client Service sees: srvr answered on the Service's address. The
// ready members reach the Service's EndpointSlice, and then kube-proxy's rules, a moment after the workload says Ready;
// until then the ClusterIP refuses connections, as on any cluster, so the question is asked again until answered.
import { ZOOKEEPER_PORTS } from '@zk-oam/apis';
import { fourLetterWord, parseSrvr, type SrvrAnswer } from '@zk-oam/zookeeper';
import { waitFor } from './wait-for.js';

const ANSWER_TIMEOUT_MS = 30_000;

export async function srvrThroughService(address: string): Promise<SrvrAnswer> {
  return waitFor(
    `srvr answered through the Service at ${address}:${String(ZOOKEEPER_PORTS.client)}`,
    async () => parseSrvr(await fourLetterWord(address, ZOOKEEPER_PORTS.client, 'srvr', { timeoutMs: 3_000 })),
    () => true,
    ANSWER_TIMEOUT_MS,
  );
}
