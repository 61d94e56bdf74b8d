// Renders the files one local ZooKeeper member starts from: static zoo.cfg, dynamic membership file, myid.
import { formatDynamicConfig, type DynamicConfig, type ServerEntry } from '@zk-oam/zookeeper';

export interface MemberAddress {
  id: number;
  ip: string;
}

export interface MemberPorts {
  client: number;
  quorum: number;
  election: number;
}

/** The server line of a local member: every port bound to the member's own loopback IP. */
export function localServerEntry(member: MemberAddress, ports: MemberPorts, role: ServerEntry['role']): ServerEntry {
  return {
    id: member.id,
    host: member.ip,
    quorumPort: ports.quorum,
    electionPort: ports.election,
    role,
    clientAddress: member.ip,
    clientPort: ports.client,
  };
}

/** Static part of zoo.cfg: membership lives only in the dynamic file, as reconfig requires. */
export function renderStaticConfig(paths: { dataDir: string; dynamicConfigFile: string }): string {
  return [
    'tickTime=2000',
    'initLimit=10',
    'syncLimit=5',
    `dataDir=${paths.dataDir}`,
    `dynamicConfigFile=${paths.dynamicConfigFile}`,
    'reconfigEnabled=true',
    'standaloneEnabled=false',
    '4lw.commands.whitelist=srvr,mntr,conf,ruok',
    'admin.enableServer=false',
    // Never leave the member's own address: all listeners on its loopback IP.
    'quorumListenOnAllIPs=false',
    '',
  ].join('\n');
}

export function renderDynamicConfig(servers: ServerEntry[]): string {
  return formatDynamicConfig({ servers, version: undefined } satisfies DynamicConfig);
}
