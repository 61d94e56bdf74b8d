// Derives a ZookeeperWorkload's whole status from what was observed; pure: same inputs, same status.
import type { V1Pod, V1StatefulSet } from '@kubernetes/client-node';
import type { Member, ZookeeperWorkload, ZookeeperWorkloadStatus } from '@zk-oam/apis';
import { setConditions } from '@zk-oam/runtime';
import type { EnsembleObservation, ServerRole, Zxid } from '@zk-oam/zookeeper';
import { selectorLabels, workloadNames } from '../render/identity.js';
import { conditionVerdicts } from './conditions.js';
import { configuredMembers, type EnsembleView } from './ensemble-view.js';
import { formatLabelSelector } from './label-selector.js';
import { phaseOf } from './phase.js';
import { gatherStatusFacts } from './status-facts.js';

export interface DeriveStatusInput {
  /** As read from the API: its status is the previous one (condition times, last known config). */
  workload: ZookeeperWorkload;
  statefulSet: V1StatefulSet | undefined;
  /** The workload's member pods. */
  pods: readonly V1Pod[];
  /** Undefined when nobody was asked (no pods). */
  ensemble: EnsembleObservation | undefined;
  now: Date;
}

/** The committed configuration by pod: what a MembershipChanged event announces. Not in the CR status, whose members have no voting flag. */
export interface CommittedMembership {
  configVersion: string;
  members: { myid: number; pod: string; role: ServerRole }[];
}

export interface DerivedStatus {
  status: ZookeeperWorkloadStatus;
  /** Undefined when the committed config could not be read this time. */
  membership: CommittedMembership | undefined;
}

export function deriveStatus(input: DeriveStatusInput): DerivedStatus {
  const { workload, statefulSet } = input;
  const previous = workload.status;
  const names = workloadNames(workload);
  const facts = gatherStatusFacts(input, statefulSet?.metadata?.name ?? names.statefulSet);
  const { view, rollout } = facts;
  const membership = committedMembership(view);
  const configured = configuredMembers(view);
  const status: ZookeeperWorkloadStatus = {
    observedGeneration: workload.metadata.generation,
    phase: phaseOf(facts),
    replicas: view.committed === undefined ? (previous?.replicas ?? 0) : configured.length,
    readyReplicas: configured.filter((member) => member.health.serving && member.health.synced).length,
    updatedReplicas: rollout.updatedPods,
    selector: formatLabelSelector(statefulSet?.spec?.selector ?? { matchLabels: selectorLabels(workload) }),
    members: statusMembers(view),
    leader: view.leader?.pod,
    configVersion: membership?.configVersion ?? previous?.configVersion,
    currentRevision: rollout.currentRevision,
    updateRevision: rollout.updateRevision,
    quorumTls: facts.quorumTls,
    clientEndpoint: {
      service: names.clientService,
      connectString: `${names.clientService}.${names.namespace}.svc:${workload.spec.clientService.port}`,
    },
    conditions: setConditions(previous?.conditions, conditionVerdicts(facts), { generation: workload.metadata.generation, now: input.now }),
  };
  return { status, membership };
}

function statusMembers(view: EnsembleView): Member[] {
  return view.members.map((member) => ({
    pod: member.pod,
    myid: member.myid,
    role: member.health.role,
    synced: member.health.synced,
    voting: member.configRole === 'participant',
  }));
}

function committedMembership(view: EnsembleView): CommittedMembership | undefined {
  if (view.committed === undefined) {
    return undefined;
  }
  return {
    configVersion: configVersionText(view.committed.version),
    members: view.members.flatMap((member) =>
      member.configRole === undefined ? [] : [{ myid: member.myid, pod: member.pod, role: member.configRole }],
    ),
  };
}

/** Hex without 0x, as getconfig prints it (and the MembershipChanged event carries it). */
function configVersionText(version: Zxid): string {
  return version.value.toString(16);
}
