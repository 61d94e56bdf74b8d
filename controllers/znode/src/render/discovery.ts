// The discovery ConfigMap and Secret of a znode (pure): named after it, owned by it, with the keys of the znode
// contract (apis/src/znode/contract.ts). The Secret carries the tenant's SASL credentials when it has some, and is
// written empty otherwise, so that a client mounting it starts either way.
import {
  DISCOVERY_CONFIG_KEYS,
  DISCOVERY_SECRET_KEYS,
  discoveryNames,
  MANAGED_BY,
  MANAGED_BY_LABEL,
  ZOOKEEPER_ZNODE,
  type ZookeeperZnode,
} from '@zk-oam/apis';
import type { ApplyConfiguration } from '@zk-oam/runtime';
import type { Connection } from './connection.js';

/** On the discovery objects: the znode they were written for. */
export const ZNODE_LABEL = 'znode.zookeeper.zkoam.dev/znode';

export interface SaslCredentials {
  readonly user: string;
  readonly password: string;
}

export interface DiscoveryInput {
  readonly znode: ZookeeperZnode;
  readonly connection: Connection;
  /** PEM of the CA the members' certificates chain to, when they serve TLS. */
  readonly ca: string | undefined;
  readonly credentials: SaslCredentials | undefined;
}

export interface DiscoveryObject extends ApplyConfiguration {
  readonly apiVersion: 'v1';
  readonly kind: 'ConfigMap' | 'Secret';
  readonly metadata: { readonly name: string; readonly namespace: string; readonly labels: Record<string, string>; readonly ownerReferences: unknown[] };
  readonly data: Record<string, string>;
}

function metadata(znode: ZookeeperZnode, name: string): DiscoveryObject['metadata'] {
  const { uid = '', namespace = '' } = znode.metadata;
  return {
    name,
    namespace,
    labels: { [MANAGED_BY_LABEL]: MANAGED_BY, [ZNODE_LABEL]: znode.metadata.name },
    ownerReferences: [{ apiVersion: ZOOKEEPER_ZNODE.apiVersion, kind: ZOOKEEPER_ZNODE.kind, name: znode.metadata.name, uid, controller: true, blockOwnerDeletion: true }],
  };
}

export function buildDiscoveryConfigMap(input: DiscoveryInput): DiscoveryObject {
  const { connection, ca } = input;
  const keys = DISCOVERY_CONFIG_KEYS;
  const data: Record<string, string> = {
    [keys.connectString]: connection.connectString,
    [keys.hosts]: connection.hosts,
    [keys.chroot]: connection.chroot,
    [keys.tls]: String(connection.tls),
    ...(connection.clientPort === undefined ? {} : { [keys.clientPort]: String(connection.clientPort) }),
    ...(connection.secureClientPort === undefined ? {} : { [keys.secureClientPort]: String(connection.secureClientPort) }),
    ...(ca === undefined ? {} : { [keys.ca]: ca }),
  };
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: metadata(input.znode, discoveryNames(input.znode.metadata.name).configMap), data };
}

export function buildDiscoverySecret(input: DiscoveryInput): DiscoveryObject & { readonly type: 'Opaque' } {
  const { credentials } = input;
  const keys = DISCOVERY_SECRET_KEYS;
  const text: Record<string, string> =
    credentials === undefined ? {} : { [keys.saslUser]: credentials.user, [keys.saslPassword]: credentials.password, [keys.jaas]: jaasClientSection(credentials) };
  const data = Object.fromEntries(Object.entries(text).map(([key, value]) => [key, Buffer.from(value, 'utf8').toString('base64')]));
  return { apiVersion: 'v1', kind: 'Secret', metadata: metadata(input.znode, discoveryNames(input.znode.metadata.name).secret), type: 'Opaque', data };
}

/** The JAAS Client section ZooKeeper's Java client logs in with over SASL DIGEST-MD5. */
export function jaasClientSection(credentials: SaslCredentials): string {
  return `Client {\n  org.apache.zookeeper.server.auth.DigestLoginModule required\n  username="${credentials.user}"\n  password="${credentials.password}";\n};\n`;
}
