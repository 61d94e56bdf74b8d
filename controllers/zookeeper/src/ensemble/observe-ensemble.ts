// Asks every member by IP (srvr and mntr, concurrently, short timeout) and reads the committed config from conf, over
// four-letter words only: no ZooKeeper session is opened. Never throws.
import { observeMember } from '../health/observe.js';
import type { MemberObservation } from '../health/observation.js';
import { readCommittedConfig, type ConfReader, type EnsembleTls } from './committed-config.js';
import type { EnsembleObservation, ObservedPod } from './ensemble-observation.js';
import { PodWithoutIpError } from './errors.js';

/** A member as the controllers know it: its pod's name, the server id it runs, and its IP (undefined while it has none). */
export interface MemberPod {
  readonly pod: string;
  readonly myid: number;
  readonly ip: string | undefined;
}

/** Where an ensemble's members answer four-letter words: the port, and how to trust them when it is a secure one. */
export interface MemberAccess {
  readonly port: number;
  readonly tls: EnsembleTls | undefined;
}

export interface ObserveEnsembleOptions {
  clientPort: number;
  /** Budget of each four-letter word. */
  timeoutMs: number;
  /** Asks a member for conf; tests inject answers. Default: over TCP. */
  readConf?: ConfReader;
  /** Set when clientPort is the members' secure client port. */
  tls?: EnsembleTls | undefined;
}

export async function observeEnsemble(pods: readonly MemberPod[], options: ObserveEnsembleOptions): Promise<EnsembleObservation> {
  const targets = memberPods(pods);
  const members = await Promise.all(
    targets.map(async ({ pod, myid, ip }): Promise<ObservedPod> => ({ pod, myid, ip, observation: await askMember(pod, myid, ip, options) })),
  );
  const committed = await readCommittedConfig(members, options);
  return { members, committed };
}

function memberPods(pods: readonly MemberPod[]): MemberPod[] {
  return pods.map(({ pod, myid, ip }) => ({ pod, myid, ip: ip === '' ? undefined : ip })).sort((a, b) => a.myid - b.myid);
}

function askMember(pod: string, myid: number, ip: string | undefined, options: ObserveEnsembleOptions): Promise<MemberObservation> {
  if (ip === undefined) {
    return Promise.resolve({ id: myid, address: '', error: new PodWithoutIpError(pod) });
  }
  const tls = options.tls === undefined ? undefined : { ca: options.tls.ca, serverName: options.tls.serverName({ pod, myid }) };
  return observeMember({ id: myid, host: ip, clientPort: options.clientPort, tls }, { timeoutMs: options.timeoutMs, mntr: true });
}
