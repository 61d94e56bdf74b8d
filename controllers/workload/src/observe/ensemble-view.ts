// The observation judged by the ZooKeeper health model, with every member tied to its pod: what status is derived from.
import { podOfMember, ZOOKEEPER_PORTS } from '@zk-oam/apis';
import {
  assessEnsemble,
  type CommittedConfig,
  type DynamicConfig,
  type EnsembleAssessment,
  type EnsembleObservation,
  type MemberStatus,
  type ObservedPod,
  type ServerEntry,
  type ServerRole,
} from '@zk-oam/zookeeper';

export interface MemberView {
  pod: string;
  myid: number;
  ip: string | undefined;
  /** Whether a pod for the member exists. */
  hasPod: boolean;
  /** Listed in the committed config (as participant or observer). */
  inConfig: boolean;
  /** Its role in the committed config; undefined when not listed. */
  configRole: ServerRole | undefined;
  health: MemberStatus;
}

export interface EnsembleView {
  assessment: EnsembleAssessment;
  /** Committed members and member pods, sorted by myid. */
  members: MemberView[];
  /** Undefined when it could not be read; the assessment then assumes every member pod votes. */
  committed: CommittedConfig | undefined;
  leader: MemberView | undefined;
}

export function viewEnsemble(observation: EnsembleObservation | undefined, statefulSetName: string): EnsembleView {
  const observed = observation?.members ?? [];
  const committed = observation?.committed.ok === true ? observation.committed.config : undefined;
  const config = committed ?? assumedConfig(observed);
  const assessment = assessEnsemble(
    config,
    observed.map((member) => member.observation),
  );
  const members = assessment.members.map((health): MemberView => {
    const pod = observed.find((member) => member.myid === health.id);
    const configRole = config.servers.find((server) => server.id === health.id)?.role;
    return {
      pod: pod?.pod ?? podOfMember(statefulSetName, health.id),
      myid: health.id,
      ip: pod?.ip,
      hasPod: pod !== undefined,
      inConfig: configRole !== undefined,
      configRole,
      health,
    };
  });
  return {
    assessment,
    members,
    committed,
    leader: members.find((member) => member.myid === assessment.leader),
  };
}

/**
 * Without a readable config (no member serves, or the read failed) the best guess is the StatefulSet's design:
 * every member pod votes. Ports are the rendered ones; the health model reads only ids, roles and hosts.
 */
function assumedConfig(observed: readonly ObservedPod[]): DynamicConfig {
  const servers = observed.map(
    (member): ServerEntry => ({
      id: member.myid,
      host: member.ip ?? member.pod,
      quorumPort: ZOOKEEPER_PORTS.quorum,
      electionPort: ZOOKEEPER_PORTS.election,
      role: 'participant',
      clientAddress: undefined,
      clientPort: ZOOKEEPER_PORTS.client,
    }),
  );
  return { servers, version: undefined };
}

/** Members the committed config lists (voters and observers). */
export function configuredMembers(view: EnsembleView): MemberView[] {
  return view.members.filter((member) => member.inConfig);
}
