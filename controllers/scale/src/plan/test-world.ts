// A small in-memory model of an ensemble on a StatefulSet, for tests: builds planner input and plays each step's effect.
//
// It behaves as ZooKeeper and Kubernetes do where the plan depends on it: a new pod starts as a non-voting observer
// and syncs; a reconfigured-in observer runs as an observer until it rejoins as a follower; a removed leader leads on
// until it hands over to a voter; a removed member stays up as a non-voting follower until its pod stops. Every effect
// asserts the invariant it relies on, so a plan that breaks one fails the test at the step that did it.
import { memberHost, myidOfOrdinal, ordinalOfMyid, podName, type ScaleStep, statefulSetNameOf, volumeName, ZOOKEEPER_PORTS } from '@zk-oam/apis';
import { majorityAfter, quorumSize, zxidFromValue, type MemberObservation, type ServerEntry } from '@zk-oam/zookeeper';
import { answeringMember, notServingMember, type LeaderSyncCounts } from '@zk-oam/zookeeper/testing';
import type { ScaleAction } from './action.js';
import type { ScalePlanInput } from './input.js';

/** The workload whose ensemble the world models, and its members' StatefulSet. */
export const WORKLOAD = 'zk';
export const STATEFUL_SET = statefulSetNameOf(WORKLOAD);

/** starting: not serving yet; syncing: serving, not in the broadcast phase; synced: serving and caught up. */
type ServerState = 'starting' | 'syncing' | 'synced';

interface PodModel {
  ordinal: number;
  deleting: boolean;
  server: ServerState;
  /** The role it runs with while outside the committed config, or right after being promoted into it. */
  runsAs: 'participant' | 'observer' | 'non-voting follower';
  /** Knocked out by a test; only the test brings it back. */
  down: boolean;
}

export class InvariantBroken extends Error {
  override readonly name = 'InvariantBroken';
}

export interface WorldOptions {
  members: number;
  target: number;
  policy?: 'Retain' | 'Delete';
  /** Myid of the leader; the lowest voter by default. */
  leader?: number;
}

export class World {
  target: number;
  policy: 'Retain' | 'Delete';
  workloadReplicas: number;
  statefulSetReplicas: number;
  pods: PodModel[];
  volumes: { ordinal: number; deleting: boolean }[];
  voters: number[];
  configVersion: bigint;
  leader: number | undefined;
  recordedStep: ScaleStep | undefined = undefined;
  now = new Date('2026-01-01T00:00:00Z');
  leaderElections = 0;
  /** "add 4", "remove 5": every reconfig the plan made, in order. */
  readonly reconfigs: string[] = [];

  constructor(options: WorldOptions) {
    const ordinals = Array.from({ length: options.members }, (_, ordinal) => ordinal);
    this.target = options.target;
    this.policy = options.policy ?? 'Retain';
    this.workloadReplicas = options.members;
    this.statefulSetReplicas = options.members;
    this.pods = ordinals.map((ordinal) => ({ ordinal, deleting: false, server: 'synced', runsAs: 'participant', down: false }));
    this.volumes = ordinals.map((ordinal) => ({ ordinal, deleting: false }));
    this.voters = ordinals.map(myidOfOrdinal);
    this.configVersion = 0x1_0000_0000n;
    this.leader = options.leader ?? 1;
  }

  input(overrides: Partial<ScalePlanInput> = {}): ScalePlanInput {
    return {
      trait: { replicas: this.target, removedMemberVolumePolicy: this.policy, stepTimeoutSeconds: 600 },
      recordedStep: this.recordedStep,
      workloadReplicas: this.workloadReplicas,
      statefulSet: { name: STATEFUL_SET, replicas: this.statefulSetReplicas },
      pods: this.pods.map((pod) => ({
        name: podName(STATEFUL_SET, pod.ordinal),
        ordinal: pod.ordinal,
        ready: !pod.deleting && !pod.down && pod.server !== 'starting',
        deleting: pod.deleting,
        podIP: podIP(pod.ordinal),
      })),
      volumes: this.volumes.map((volume) => ({ name: volumeName(STATEFUL_SET, volume.ordinal), ...volume })),
      committed: {
        ok: true,
        config: {
          servers: this.voters.map((id) => serverEntry(id, 'participant')),
          version: zxidFromValue(this.configVersion),
        },
      },
      observations: this.pods.filter((pod) => !pod.deleting).map((pod) => this.observe(pod)),
      serverEntryOf: (myid) => serverEntry(myid, 'participant'),
      now: this.now,
      ...overrides,
    };
  }

  private observe(pod: PodModel): MemberObservation {
    const id = myidOfOrdinal(pod.ordinal);
    const address = podIP(pod.ordinal);
    if (pod.down || pod.server === 'starting') {
      return notServingMember(id, address);
    }
    const zxid = zxidFromValue(this.configVersion);
    const phase = pod.server === 'synced' ? 'broadcast' : 'synchronization';
    if (this.leader === id) {
      return answeringMember(id, address, { mode: 'leader', zxid, phase, synced: this.leaderSyncCounts(id) });
    }
    return answeringMember(id, address, { mode: pod.runsAs === 'observer' ? 'observer' : 'follower', zxid, phase });
  }

  /** What the leader's mntr counts: the other members serving and synced, by the role they run with. */
  private leaderSyncCounts(leader: number): LeaderSyncCounts {
    const synced = this.pods.filter(
      (pod) => myidOfOrdinal(pod.ordinal) !== leader && !pod.deleting && !pod.down && pod.server === 'synced',
    );
    const followers = synced.filter((pod) => pod.runsAs !== 'observer');
    return {
      followers: followers.length,
      nonVotingFollowers: followers.filter((pod) => !this.voters.includes(myidOfOrdinal(pod.ordinal))).length,
      observers: synced.length - followers.length,
    };
  }

  /** Carries out one world-changing action, asserting the invariants it must keep. */
  apply(action: ScaleAction): void {
    switch (action.kind) {
      case 'RaiseReplicas':
        this.expect(action.to === this.workloadReplicas + 1, `raise by one, not ${this.workloadReplicas} -> ${action.to}`);
        this.workloadReplicas = action.to;
        return;
      case 'ReconfigAdd':
        this.reconfigAdd(action.member, action.fromVersion.value);
        return;
      case 'ReconfigRemove':
        this.reconfigRemove(action.member, action.fromVersion.value);
        return;
      case 'LowerReplicas': {
        this.expect(action.to === this.workloadReplicas - 1, `lower by one, not ${this.workloadReplicas} -> ${action.to}`);
        this.expect(!this.voters.includes(action.to + 1), `invariant 2: member ${action.to + 1} still votes when its pod is stopped`);
        this.expect(this.servingVoters().length >= quorumSize(this.voters.length), 'the confirming write needs a quorum');
        this.expect(this.leader !== undefined && this.voters.includes(this.leader), 'the confirming write needs a voter leading');
        this.workloadReplicas = action.to;
        return;
      }
      case 'DeleteVolume': {
        const ordinal = action.member - 1;
        this.expect(action.pvc === volumeName(STATEFUL_SET, ordinal), `PVC ${action.pvc} is not member ${action.member}'s`);
        this.expect(!this.pods.some((pod) => pod.ordinal === ordinal), `PVC ${action.pvc} deleted while its pod exists`);
        this.volumes = this.volumes.map((volume) => (volume.ordinal === ordinal ? { ...volume, deleting: true } : volume));
        return;
      }
      case 'Done':
      case 'Wait':
      case 'Blocked':
        return;
    }
  }

  private reconfigAdd(member: number, fromVersion: bigint): void {
    this.expect(fromVersion === this.configVersion, 'reconfig from a stale config version');
    const pod = this.pods.find((candidate) => candidate.ordinal === member - 1 && !candidate.deleting);
    this.expect(pod !== undefined && pod.server === 'synced' && !pod.down, `invariant 3: member ${member} is not running and synced`);
    this.expect(!this.voters.includes(member), `member ${member} is added twice`);
    this.expectMajority([...this.servingVoters(), member], [...this.voters, member]);
    this.voters = [...this.voters, member].sort((a, b) => a - b);
    this.configVersion += 1n;
    this.reconfigs.push(`add ${member}`);
  }

  private reconfigRemove(member: number, fromVersion: bigint): void {
    this.expect(fromVersion === this.configVersion, 'reconfig from a stale config version');
    this.expect(this.voters.includes(member), `member ${member} is removed twice`);
    const remaining = this.voters.filter((id) => id !== member);
    this.expectMajority(this.servingVoters(), remaining);
    this.voters = remaining;
    this.configVersion += 1n;
    this.reconfigs.push(`remove ${member}`);
    this.pods = this.pods.map((pod) => (pod.ordinal === member - 1 ? { ...pod, runsAs: 'non-voting follower' } : pod));
  }

  /** Invariant 1: the members up during the reconfig are a majority of the old and the new voters. */
  private expectMajority(up: number[], newVoters: number[]): void {
    const check = majorityAfter(up, this.voters, newVoters);
    this.expect(check.ok, `invariant 1: ${check.ok ? '' : check.reason}`);
  }

  /** One thing the cluster does by itself (StatefulSet controller, kubelet, ZooKeeper); false when nothing is left. */
  advance(): boolean {
    this.now = new Date(this.now.getTime() + 5_000);
    return (
      this.followStatefulSet() ||
      this.stopPodBeyondReplicas() ||
      this.startMissingPod() ||
      this.progressServer() ||
      this.finishVolumeDeletion() ||
      this.electLeader()
    );
  }

  private followStatefulSet(): boolean {
    if (this.statefulSetReplicas === this.workloadReplicas) {
      return false;
    }
    this.statefulSetReplicas = this.workloadReplicas;
    return true;
  }

  private stopPodBeyondReplicas(): boolean {
    const deleting = this.pods.find((pod) => pod.deleting);
    if (deleting !== undefined) {
      this.pods = this.pods.filter((pod) => pod !== deleting);
      return true;
    }
    const beyond = this.pods.find((pod) => pod.ordinal >= this.statefulSetReplicas);
    if (beyond === undefined) {
      return false;
    }
    beyond.deleting = true;
    return true;
  }

  private startMissingPod(): boolean {
    const ordinal = this.pods.length;
    const blockedByVolume = this.volumes.some((volume) => volume.ordinal === ordinal && volume.deleting);
    if (ordinal >= this.statefulSetReplicas || blockedByVolume) {
      return false;
    }
    this.pods.push({ ordinal, deleting: false, server: 'starting', runsAs: 'participant', down: false });
    if (!this.volumes.some((volume) => volume.ordinal === ordinal)) {
      this.volumes.push({ ordinal, deleting: false });
    }
    return true;
  }

  /** Start -> sync as the start script decides (observer outside the config); a promoted observer rejoins as a follower. */
  private progressServer(): boolean {
    const pod = this.pods.find((candidate) => !candidate.deleting && !candidate.down && (candidate.server !== 'synced' || this.promoted(candidate)));
    if (pod === undefined) {
      return false;
    }
    if (pod.server === 'starting') {
      pod.server = 'syncing';
      pod.runsAs = this.voters.includes(myidOfOrdinal(pod.ordinal)) ? 'participant' : 'observer';
    } else if (pod.server === 'syncing') {
      pod.server = 'synced';
    } else {
      pod.runsAs = 'participant';
    }
    return true;
  }

  private promoted(pod: PodModel): boolean {
    return pod.runsAs !== 'participant' && this.voters.includes(myidOfOrdinal(pod.ordinal));
  }

  private finishVolumeDeletion(): boolean {
    const before = this.volumes.length;
    this.volumes = this.volumes.filter((volume) => !volume.deleting || this.pods.some((pod) => pod.ordinal === volume.ordinal));
    return this.volumes.length !== before;
  }

  /** A removed leader keeps leading until it hands over to a voter; a lost leader is replaced by an election. */
  private electLeader(): boolean {
    if (this.leader !== undefined && this.voters.includes(this.leader)) {
      return false;
    }
    const elected = this.servingVoters()[0];
    if (elected === undefined) {
      return false;
    }
    this.leader = elected;
    this.leaderElections += 1;
    return true;
  }

  servingVoters(): number[] {
    return this.voters.filter((id) => {
      const pod = this.pods.find((candidate) => candidate.ordinal === ordinalOfMyid(id));
      return pod !== undefined && !pod.deleting && !pod.down && pod.server !== 'starting';
    });
  }

  /** Test knob: a member's server stops answering (or comes back). */
  setDown(myid: number, down: boolean): void {
    this.pods = this.pods.map((pod) => (pod.ordinal === ordinalOfMyid(myid) ? { ...pod, down } : pod));
  }

  private expect(condition: boolean, message: string): asserts condition {
    if (!condition) {
      throw new InvariantBroken(message);
    }
  }
}

export function podIP(ordinal: number): string {
  return `127.0.10.${myidOfOrdinal(ordinal)}`;
}

export function serverEntry(id: number, role: ServerEntry['role']): ServerEntry {
  const host = memberHost(WORKLOAD, 'default', ordinalOfMyid(id));
  return { id, host, quorumPort: ZOOKEEPER_PORTS.quorum, electionPort: ZOOKEEPER_PORTS.election, role, clientAddress: host, clientPort: ZOOKEEPER_PORTS.client };
}
