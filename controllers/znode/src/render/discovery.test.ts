// The discovery objects of a znode, whole: the connect string with the path as chroot on a plain ensemble, the ports
// and CA of a TLS one, and the tenant's SASL credentials with a JAAS file clients use as it is.
import { ZOOKEEPER_WORKLOAD, ZOOKEEPER_ZNODE, zookeeperWorkloadSchema, zookeeperZnodeSchema, type ZookeeperWorkload } from '@zk-oam/apis';
import { describe, expect, it } from 'vitest';
import { connectionOf } from './connection.js';
import { buildDiscoveryConfigMap, buildDiscoverySecret } from './discovery.js';

const znode = zookeeperZnodeSchema.parse({
  apiVersion: ZOOKEEPER_ZNODE.apiVersion,
  kind: 'ZookeeperZnode',
  metadata: { name: 'kafka', namespace: 'prod', uid: 'u-1' },
  spec: { workloadRef: { name: 'zk' } },
});

function workload(spec: object = {}): ZookeeperWorkload {
  return zookeeperWorkloadSchema.parse({
    apiVersion: ZOOKEEPER_WORKLOAD.apiVersion,
    kind: 'ZookeeperWorkload',
    metadata: { name: 'zk', namespace: 'prod' },
    spec: { image: { repository: 'zookeeper', tag: '3.8' }, ...spec },
  });
}

const owner = [{ apiVersion: ZOOKEEPER_ZNODE.apiVersion, kind: 'ZookeeperZnode', name: 'kafka', uid: 'u-1', controller: true, blockOwnerDeletion: true }];
const labels = { 'app.kubernetes.io/managed-by': 'zk-oam', 'znode.zookeeper.zkoam.dev/znode': 'kafka' };
const decoded = (data: Record<string, string>): Record<string, string> => Object.fromEntries(Object.entries(data).map(([key, value]) => [key, Buffer.from(value, 'base64').toString('utf8')]));

describe('the discovery ConfigMap', () => {
  it('gives a plain ensemble the connect string with the path as chroot, and its halves', () => {
    const connection = connectionOf(workload(), '/znode-u-1');
    expect(buildDiscoveryConfigMap({ znode, connection, ca: undefined, credentials: undefined })).toEqual({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'kafka', namespace: 'prod', labels, ownerReferences: owner },
      data: {
        ZOOKEEPER: 'zk-client.prod.svc.cluster.local:2181/znode-u-1',
        ZOOKEEPER_HOSTS: 'zk-client.prod.svc.cluster.local:2181',
        ZOOKEEPER_CHROOT: '/znode-u-1',
        ZOOKEEPER_CLIENT_PORT: '2181',
        ZOOKEEPER_TLS: 'false',
      },
    });
  });

  it('adds the secure port and the CA when the members serve TLS beside the plain port', () => {
    const connection = connectionOf(workload({ tls: { client: 'Alongside' } }), '/kafka');
    expect(buildDiscoveryConfigMap({ znode, connection, ca: 'PEM', credentials: undefined }).data).toEqual({
      ZOOKEEPER: 'zk-client.prod.svc.cluster.local:2181/kafka',
      ZOOKEEPER_HOSTS: 'zk-client.prod.svc.cluster.local:2181',
      ZOOKEEPER_CHROOT: '/kafka',
      ZOOKEEPER_CLIENT_PORT: '2181',
      ZOOKEEPER_SECURE_CLIENT_PORT: '2281',
      ZOOKEEPER_TLS: 'false',
      'ca.crt': 'PEM',
    });
  });

  it('connects over TLS on the Service port when the members serve clients over TLS only', () => {
    const connection = connectionOf(workload({ tls: { client: 'Only' }, clientService: { port: 2281 } }), '/kafka');
    expect(buildDiscoveryConfigMap({ znode, connection, ca: 'PEM', credentials: undefined }).data).toEqual({
      ZOOKEEPER: 'zk-client.prod.svc.cluster.local:2281/kafka',
      ZOOKEEPER_HOSTS: 'zk-client.prod.svc.cluster.local:2281',
      ZOOKEEPER_CHROOT: '/kafka',
      ZOOKEEPER_SECURE_CLIENT_PORT: '2281',
      ZOOKEEPER_TLS: 'true',
      'ca.crt': 'PEM',
    });
  });
});

describe('the discovery Secret', () => {
  const connection = connectionOf(workload(), '/kafka');

  it("carries the tenant's SASL user, password and a JAAS Client section", () => {
    const secret = buildDiscoverySecret({ znode, connection, ca: undefined, credentials: { user: 'znode-u-1', password: 'pw' } });
    expect(secret).toMatchObject({ apiVersion: 'v1', kind: 'Secret', type: 'Opaque', metadata: { name: 'kafka', namespace: 'prod', labels, ownerReferences: owner } });
    expect(decoded(secret.data)).toEqual({
      ZOOKEEPER_SASL_USERNAME: 'znode-u-1',
      ZOOKEEPER_SASL_PASSWORD: 'pw',
      'jaas.conf': 'Client {\n  org.apache.zookeeper.server.auth.DigestLoginModule required\n  username="znode-u-1"\n  password="pw";\n};\n',
    });
  });

  it('is empty without credentials', () => {
    expect(buildDiscoverySecret({ znode, connection, ca: undefined, credentials: undefined }).data).toEqual({});
  });
});
