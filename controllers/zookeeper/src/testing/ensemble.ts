// Builds ensemble observations for tests: members of StatefulSet `zk` on loopback IPs answering as srvr/mntr would, and configs.
import { podOfMember, ZOOKEEPER_PORTS } from '@zk-oam/apis';
import type { CommittedConfig } from '../admin/client.js';
import type { ServerEntry } from '../dynamic-config/server-line.js';
import type { ObservedPod } from '../ensemble/ensemble-observation.js';
import type { MemberObservation } from '../health/observation.js';
import { parseZxid } from '../zxid.js';
import { answeringMember, notServingMember, type LeaderSyncCounts, type ZabPhase } from './answers.js';

export const ipOf = (myid: number): string => `127.64.3.${myid}`;

const ZXID = parseZxid('0x200000007');

function observed(myid: number, observation: MemberObservation): ObservedPod {
  return { pod: podOfMember('zk', myid), myid, ip: ipOf(myid), observation };
}

export const leader = (myid: number, synced: LeaderSyncCounts = { followers: 2 }): ObservedPod =>
  observed(myid, answeringMember(myid, ipOf(myid), { mode: 'leader', zxid: ZXID, synced }));

export const follower = (myid: number, phase: ZabPhase = 'broadcast'): ObservedPod =>
  observed(myid, answeringMember(myid, ipOf(myid), { mode: 'follower', zxid: ZXID, phase }));

export const observer = (myid: number): ObservedPod => observed(myid, answeringMember(myid, ipOf(myid), { mode: 'observer', zxid: ZXID }));

export const notServing = (myid: number): ObservedPod => observed(myid, notServingMember(myid, ipOf(myid)));

export function server(myid: number, role: ServerEntry['role'] = 'participant'): ServerEntry {
  return { id: myid, host: ipOf(myid), quorumPort: ZOOKEEPER_PORTS.quorum, electionPort: ZOOKEEPER_PORTS.election, role, clientAddress: ipOf(myid), clientPort: ZOOKEEPER_PORTS.client };
}

export function committed(servers: ServerEntry[], version = '200000000'): CommittedConfig {
  return { servers, version: parseZxid(version) };
}

export const THREE_VOTERS = committed([server(1), server(2), server(3)]);
