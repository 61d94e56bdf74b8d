// Asks every member by IP (srvr and mntr, concurrently, short timeout) and reads the committed config. Never throws.
import { observeMember } from '../health/observe.js';
import type { MemberObservation } from '../health/observation.js';
import { connectAdmin, readCommittedConfig, type AdminFactory } from './committed-config.js';
import type { EnsembleObservation, ObservedPod } from './ensemble-observation.js';
import { PodWithoutIpError } from './errors.js';

/** A member as the controllers know it: its pod's name, the server id it runs, and its IP (undefined while it has none). */
export interface MemberPod {
  readonly pod: string;
  readonly myid: number;
  readonly ip: string | undefined;
}

export interface ObserveEnsembleOptions {
  clientPort: number;
  /** Budget of each four-letter word and of the config read. */
  timeoutMs: number;
  /** Opens the session getConfig runs on; tests inject one. Default: the ZooKeeper admin client, no auth. */
  adminFactory?: AdminFactory;
}

export async function observeEnsemble(pods: readonly MemberPod[], options: ObserveEnsembleOptions): Promise<EnsembleObservation> {
  const targets = memberPods(pods);
  const members = await Promise.all(
    targets.map(async ({ pod, myid, ip }): Promise<ObservedPod> => ({ pod, myid, ip, observation: await askMember(pod, myid, ip, options) })),
  );
  const committed = await readCommittedConfig(members, {
    clientPort: options.clientPort,
    timeoutMs: options.timeoutMs,
    adminFactory: options.adminFactory ?? connectAdmin,
  });
  return { members, committed };
}

function memberPods(pods: readonly MemberPod[]): MemberPod[] {
  return pods.map(({ pod, myid, ip }) => ({ pod, myid, ip: ip === '' ? undefined : ip })).sort((a, b) => a.myid - b.myid);
}

function askMember(pod: string, myid: number, ip: string | undefined, options: ObserveEnsembleOptions): Promise<MemberObservation> {
  if (ip === undefined) {
    return Promise.resolve({ id: myid, address: '', error: new PodWithoutIpError(pod) });
  }
  return observeMember({ id: myid, host: ip, clientPort: options.clientPort }, { timeoutMs: options.timeoutMs, mntr: true });
}
