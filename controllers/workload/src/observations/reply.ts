// One look at an ensemble as the observation request-reply answers it: each member pod's mode and zxid from srvr, or
// why it gave none, and its lag behind the leader. Pure: the same look gives the same reply.
import type { ObservationReply, ObservedMember } from '@zk-oam/apis';
import { describeFailure, formatZxid, zxidLags, type EnsembleObservation, type ObservedPod } from '@zk-oam/zookeeper';

export interface ObservedWorkload {
  namespace: string;
  name: string;
  uid: string | undefined;
}

/** `observation` is undefined when there was no member pod to ask. */
export function observationReply(workload: ObservedWorkload, observation: EnsembleObservation | undefined, at: Date): ObservationReply {
  const pods = observation?.members ?? [];
  const lags = zxidLags(
    pods.map((member) => {
      const srvr = member.observation.srvr;
      return { id: member.myid, zxid: srvr?.zxid, leads: srvr?.mode === 'leader' || srvr?.mode === 'standalone' };
    }),
  );
  const members = pods.map((member) => observedMember(member, lags.get(member.myid) ?? { kind: 'unknown', reason: 'not observed' }));
  return {
    workload: { namespace: workload.namespace, name: workload.name, ...(workload.uid === undefined ? {} : { uid: workload.uid }) },
    observedAt: at.toISOString(),
    members,
  };
}

function observedMember(member: ObservedPod, lag: ObservedMember['lag']): ObservedMember {
  const srvr = member.observation.srvr;
  const identity = { pod: member.pod, myid: member.myid, lag };
  if (srvr === undefined) return { ...identity, answered: false, mode: 'none', problem: describeFailure(member.observation) };
  return { ...identity, answered: true, mode: srvr.mode, zxid: formatZxid(srvr.zxid) };
}
