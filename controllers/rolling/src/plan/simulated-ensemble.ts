// Test helper: an ensemble as ZooKeeper would answer srvr/mntr, judged by the real health model (assessEnsemble).
import { ZOOKEEPER_PORTS } from '@zk-oam/apis';
import { assessEnsemble, parseDynamicConfig, type EnsembleAssessment, type MemberObservation } from '@zk-oam/zookeeper';
import { answeringMember, notServingMember } from '@zk-oam/zookeeper/testing';

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
    ensemble.voters.map((id) => `server.${id}=${hostOf(id)}:${ZOOKEEPER_PORTS.quorum}:${ZOOKEEPER_PORTS.election}:participant;${hostOf(id)}:${ZOOKEEPER_PORTS.client}`).join('\n'),
  );
  return assessEnsemble(config, ensemble.voters.map((id) => observe(ensemble, id)));
}

function observe(ensemble: SimulatedEnsemble, id: number): MemberObservation {
  const state = ensemble.state(id);
  const address = hostOf(id);
  if (state === 'down' || ensemble.leader === undefined) {
    return notServingMember(id, address);
  }
  if (ensemble.leader === id) {
    const followers = ensemble.voters.filter((other) => other !== id && ensemble.state(other) === 'synced').length;
    return answeringMember(id, address, { mode: 'leader', synced: { followers } });
  }
  return answeringMember(id, address, { mode: 'follower', phase: state === 'synced' ? 'broadcast' : 'synchronization' });
}
