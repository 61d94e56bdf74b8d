// Parser for `mntr`: tab-separated zk_* metrics, with typed accessors for the ones the health model reads.
import { readFields } from './lines.js';
import { parseServerMode, type ServerMode } from './srvr.js';

export interface MntrAnswer {
  /** Every metric as printed, for the ones without an accessor. */
  values: ReadonlyMap<string, string>;
  version: string;
  serverState: ServerMode;
  /** e.g. "leading - broadcast", "following - broadcast"; absent on servers that do not print it. */
  peerState: string | undefined;
  /** True when the peer has finished syncing with the leader and is in the broadcast phase. */
  broadcasting: boolean | undefined;
  avgLatency: number;
  outstandingRequests: number;
  znodeCount: number;
  /** Leader only. */
  syncedFollowers: number | undefined;
  syncedNonVotingFollowers: number | undefined;
  syncedObservers: number | undefined;
  pendingSyncs: number | undefined;
}

export function parseMntr(text: string): MntrAnswer {
  const { values, required, number, optionalNumber } = readFields('mntr', text, /\t/);
  const peerState = values.get('zk_peer_state');
  return {
    values,
    version: required('zk_version'),
    serverState: parseServerMode('mntr', 'zk_server_state', required('zk_server_state'), text),
    peerState,
    broadcasting: peerState === undefined ? undefined : peerState.endsWith('- broadcast'),
    avgLatency: number('zk_avg_latency'),
    outstandingRequests: number('zk_outstanding_requests'),
    znodeCount: number('zk_znode_count'),
    syncedFollowers: optionalNumber('zk_synced_followers'),
    syncedNonVotingFollowers: optionalNumber('zk_synced_non_voting_followers'),
    syncedObservers: optionalNumber('zk_synced_observers'),
    pendingSyncs: optionalNumber('zk_pending_syncs'),
  };
}
