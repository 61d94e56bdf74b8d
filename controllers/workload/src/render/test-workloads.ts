// Workloads for the rendering tests: a minimal one (defaults everywhere) and one that sets every field; what TLS renders.
import { FULL_WORKLOAD_SPEC_EXAMPLE, parseResource, ZOOKEEPER_WORKLOAD, zookeeperWorkloadSchema, type ZookeeperWorkload } from '@zk-oam/apis';

const metadata = { name: 'zk', namespace: 'prod', uid: '6b1f0c1e-0000-4000-8000-000000000001' };

export function minimalWorkload(): ZookeeperWorkload {
  return parseResource(
    zookeeperWorkloadSchema,
    { apiVersion: ZOOKEEPER_WORKLOAD.apiVersion, kind: ZOOKEEPER_WORKLOAD.kind, metadata, spec: {} },
    'minimal workload',
  );
}

export function fullWorkload(): ZookeeperWorkload {
  return parseResource(
    zookeeperWorkloadSchema,
    { apiVersion: ZOOKEEPER_WORKLOAD.apiVersion, kind: ZOOKEEPER_WORKLOAD.kind, metadata, spec: FULL_WORKLOAD_SPEC_EXAMPLE },
    'full workload',
  );
}

/** The workload with its spec changed by `change` and parsed again, so defaults and validation still apply. */
export function withSpec(workload: ZookeeperWorkload, change: (spec: ZookeeperWorkload['spec']) => ZookeeperWorkload['spec']): ZookeeperWorkload {
  return parseResource(zookeeperWorkloadSchema, { ...workload, spec: change(structuredClone(workload.spec)) }, 'changed workload');
}

/** The zoo.cfg lines spec.tls renders, as a person checking the rendering would write them down. */
export const EXPECTED_TLS_ZOO_CFG = {
  client: [
    'serverCnxnFactory=org.apache.zookeeper.server.NettyServerCnxnFactory',
    'secureClientPort=2281',
    'secureClientPortAddress=@POD_IP@',
    'ssl.keyStore.location=@KEY_STORE_DIR@/keystore.pem',
    'ssl.keyStore.type=PEM',
    'ssl.trustStore.location=@TLS_DIR@/ca.crt',
    'ssl.trustStore.type=PEM',
    'ssl.clientAuth=none',
  ],
  quorum: [
    'sslQuorum=true',
    'ssl.quorum.keyStore.location=@KEY_STORE_DIR@/keystore.pem',
    'ssl.quorum.keyStore.type=PEM',
    'ssl.quorum.trustStore.location=@TLS_DIR@/ca.crt',
    'ssl.quorum.trustStore.type=PEM',
    'ssl.quorum.hostnameVerification=false',
  ],
} as const;
