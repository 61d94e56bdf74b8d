// Test helper: an ensemble as ZooKeeper would answer srvr/mntr, judged by the real health model (assessEnsemble).
import {
  assessEnsemble,
  NotServingError,
  parseDynamicConfig,
  parseMntr,
  parseSrvr,
  type EnsembleAssessment,
  type MemberObservation,
} from '@zk-oam/zookeeper';

/** synced: in the broadcast phase; syncing: serving srvr but still catching up; down: not serving. */
export type SimulatedMemberState = 'synced' | 'syncing' | 'down';

export interface SimulatedEnsemble {
  voters: readonly number[];
  leader: number | undefined;
  state(id: number): SimulatedMemberState;
}

export function hostOf(id: number): string {
  return `127.0.1.${id}`;
}

export function assessSimulated(ensemble: SimulatedEnsemble): EnsembleAssessment {
  const config = parseDynamicConfig(
    ensemble.voters.map((id) => `server.${id}=${hostOf(id)}:2888:3888:participant;${hostOf(id)}:2181`).join('\n'),
  );
  return assessEnsemble(config, ensemble.voters.map((id) => observe(ensemble, id)));
}

function observe(ensemble: SimulatedEnsemble, id: number): MemberObservation {
  const state = ensemble.state(id);
  const address = hostOf(id);
  if (state === 'down' || ensemble.leader === undefined) {
    return { id, address, error: new NotServingError({ host: address, port: 2181, word: 'srvr' }) };
  }
  const leading = ensemble.leader === id;
  const syncedFollowers = ensemble.voters.filter((other) => other !== id && ensemble.state(other) === 'synced').length;
  const peerState = leading ? 'leading - broadcast' : state === 'synced' ? 'following - broadcast' : 'following - synchronization';
  return { id, address, srvr: parseSrvr(srvrText(leading)), mntr: parseMntr(mntrText(leading, peerState, syncedFollowers)) };
}

function srvrText(leading: boolean): string {
  return [
    'Zookeeper version: 3.8.0',
    'Latency min/avg/max: 0/0.0/0',
    'Received: 1',
    'Sent: 1',
    'Connections: 1',
    'Outstanding: 0',
    'Zxid: 0x100000004',
    `Mode: ${leading ? 'leader' : 'follower'}`,
    'Node count: 5',
  ].join('\n');
}

function mntrText(leading: boolean, peerState: string, syncedFollowers: number): string {
  const lines = [
    ['zk_version', '3.8.0'],
    ['zk_server_state', leading ? 'leader' : 'follower'],
    ['zk_peer_state', peerState],
    ['zk_avg_latency', '0.0'],
    ['zk_outstanding_requests', '0'],
    ['zk_znode_count', '5'],
    ...(leading
      ? [
          ['zk_synced_followers', String(syncedFollowers)],
          ['zk_synced_non_voting_followers', '0'],
        ]
      : []),
  ];
  return lines.map(([key, value]) => `${key}\t${value}`).join('\n');
}
