// Builders for observer tests: a workload, its pods and StatefulSet, and member observations as srvr/mntr would give them.
import type { V1Pod, V1StatefulSet } from '@kubernetes/client-node';
import { zookeeperWorkloadSchema, type ZookeeperWorkload, type ZookeeperWorkloadStatus } from '@zk-oam/apis';
import {
  NotServingError,
  parseZxid,
  type CommittedConfig,
  type MemberObservation,
  type MntrAnswer,
  type ServerEntry,
  type ServerMode,
  type SrvrAnswer,
} from '@zk-oam/zookeeper';
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

function srvr(mode: ServerMode, zxid: string): SrvrAnswer {
  return {
    version: '3.8.0',
    latency: { min: 0, avg: 0, max: 0 },
    received: 1,
    sent: 1,
    connections: 1,
    outstanding: 0,
    zxid: parseZxid(zxid),
    mode,
    nodeCount: 5,
  };
}

function mntr(mode: ServerMode, peerState: string, synced?: { followers: number; nonVoting: number }): MntrAnswer {
  return {
    values: new Map(),
    version: '3.8.0',
    serverState: mode,
    peerState,
    broadcasting: peerState.endsWith('- broadcast'),
    avgLatency: 0,
    outstandingRequests: 0,
    znodeCount: 5,
    syncedFollowers: synced?.followers,
    syncedNonVotingFollowers: synced?.nonVoting,
    syncedObservers: synced === undefined ? undefined : 0,
    pendingSyncs: synced === undefined ? undefined : 0,
  };
}

function observed(myid: number, observation: Omit<MemberObservation, 'id' | 'address'>): ObservedPod {
  return { pod: `zk-${myid - 1}`, myid, ip: ipOf(myid), observation: { id: myid, address: ipOf(myid), ...observation } };
}

export const leader = (myid: number, synced = { followers: 2, nonVoting: 0 }): ObservedPod =>
  observed(myid, { srvr: srvr('leader', '0x200000007'), mntr: mntr('leader', 'leading - broadcast', synced) });

export const follower = (myid: number, peerState = 'following - broadcast'): ObservedPod =>
  observed(myid, { srvr: srvr('follower', '0x200000007'), mntr: mntr('follower', peerState) });

export const observer = (myid: number): ObservedPod =>
  observed(myid, { srvr: srvr('observer', '0x200000007'), mntr: mntr('observer', 'observing - broadcast') });

export const notServing = (myid: number): ObservedPod =>
  observed(myid, { error: new NotServingError({ host: ipOf(myid), port: 2181, word: 'srvr' }) });

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
