// Test helper: an ensemble as ZooKeeper would answer srvr/mntr, judged by the real health model (assessEnsemble).
import { ZOOKEEPER_PORTS } from '@zk-oam/apis';
import { assessEnsemble, parseDynamicConfig, type DynamicConfig, type EnsembleAssessment, type MemberObservation } from '@zk-oam/zookeeper';
import { answeringMember, notServingMember } from '@zk-oam/zookeeper/testing';

/** synced: in the broadcast phase; syncing: serving srvr but still catching up; down: not serving. */
export type SimulatedMemberState = 'synced' | 'syncing' | 'down';

export interface SimulatedEnsemble {
  voters: readonly number[];
  /** Every member with a process: the voters and those outside the committed config (they answer as observers). */
  members: readonly number[];
  leader: number | undefined;
  state(id: number): SimulatedMemberState;
}

export function hostOf(id: number): string {
  return `127.0.1.${id}`;
}

export function serverLineOf(id: number): string {
  return `server.${id}=${hostOf(id)}:${ZOOKEEPER_PORTS.quorum}:${ZOOKEEPER_PORTS.election}:participant;${hostOf(id)}:${ZOOKEEPER_PORTS.client}`;
}

export function configOf(voters: readonly number[]): DynamicConfig {
  return parseDynamicConfig(voters.map(serverLineOf).join('\n'));
}

export function assessSimulated(ensemble: SimulatedEnsemble): EnsembleAssessment {
  return assessEnsemble(configOf(ensemble.voters), ensemble.members.map((id) => observe(ensemble, id)));
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
  const mode = ensemble.voters.includes(id) ? 'follower' : 'observer';
  return answeringMember(id, address, { mode, phase: state === 'synced' ? 'broadcast' : 'synchronization' });
}
