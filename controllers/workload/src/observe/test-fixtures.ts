// Builders for observer tests: a workload, its pods and StatefulSet, and member observations as srvr/mntr would give them.
import type { V1Pod, V1StatefulSet } from '@kubernetes/client-node';
import { zookeeperWorkloadSchema, type ZookeeperWorkload, type ZookeeperWorkloadStatus } from '@zk-oam/apis';
import { parseZxid, type CommittedConfig, type MemberObservation, type ServerEntry } from '@zk-oam/zookeeper';
import { answeringMember, notServingMember, type LeaderSyncCounts, type ZabPhase } from '@zk-oam/zookeeper/testing';
import type { EnsembleObservation, ObservedPod } from './ensemble-observation.js';

export const NOW = new Date('2026-11-22T05:00:00.000Z');
export const EARLIER = '2026-11-22T04:00:00Z';

export function workload(status?: ZookeeperWorkloadStatus): ZookeeperWorkload {
  return zookeeperWorkloadSchema.parse({
    apiVersion: 'workload.zookeeper.zkoam.dev/v1alpha1',
    kind: 'ZookeeperWorkload',
    metadata: { name: 'zk', namespace: 'prod', uid: 'uid-1', generation: 4 },
    spec: { replicas: 3 },
    status,
  });
}

export const ipOf = (myid: number): string => `127.64.3.${myid}`;

export function pod(ordinal: number, revision = 'zk-rev1'): V1Pod {
  return {
    metadata: { name: `zk-${ordinal}`, namespace: 'prod', labels: { 'controller-revision-hash': revision } },
    status: { podIP: ipOf(ordinal + 1) },
  };
}

export function statefulSet(replicas: number, revisions: { current: string; update: string } = { current: 'zk-rev1', update: 'zk-rev1' }): V1StatefulSet {
  return {
    metadata: { name: 'zk', namespace: 'prod' },
    spec: {
      replicas,
      serviceName: 'zk-headless',
      selector: { matchLabels: { 'app.kubernetes.io/name': 'zookeeper', 'app.kubernetes.io/instance': 'zk' } },
      template: {},
    },
    status: { replicas, currentRevision: revisions.current, updateRevision: revisions.update },
  };
}

const ZXID = parseZxid('0x200000007');

function observed(myid: number, observation: MemberObservation): ObservedPod {
  return { pod: `zk-${myid - 1}`, myid, ip: ipOf(myid), observation };
}

export const leader = (myid: number, synced: LeaderSyncCounts = { followers: 2 }): ObservedPod =>
  observed(myid, answeringMember(myid, ipOf(myid), { mode: 'leader', zxid: ZXID, synced }));

export const follower = (myid: number, phase: ZabPhase = 'broadcast'): ObservedPod =>
  observed(myid, answeringMember(myid, ipOf(myid), { mode: 'follower', zxid: ZXID, phase }));

export const observer = (myid: number): ObservedPod =>
  observed(myid, answeringMember(myid, ipOf(myid), { mode: 'observer', zxid: ZXID }));

export const notServing = (myid: number): ObservedPod => observed(myid, notServingMember(myid, ipOf(myid)));

export function server(myid: number, role: ServerEntry['role'] = 'participant'): ServerEntry {
  return { id: myid, host: ipOf(myid), quorumPort: 2888, electionPort: 3888, role, clientAddress: ipOf(myid), clientPort: 2181 };
}

export function committed(servers: ServerEntry[], version = '200000000'): CommittedConfig {
  return { servers, version: parseZxid(version) };
}

export function ensemble(members: ObservedPod[], config: CommittedConfig | Error): EnsembleObservation {
  return {
    members,
    committed: config instanceof Error ? { ok: false, error: config } : { ok: true, config, readFrom: 'zk-0' },
  };
}

export const THREE_VOTERS = committed([server(1), server(2), server(3)]);
