// What spec.tls renders into a member: zoo.cfg lines, the mounted member TLS Secret, the ports it serves, and the
// pod template annotations that restart the members onto a new certificate or new trusted CAs. Pure.
import type { V1ContainerPort, V1ServicePort } from '@kubernetes/client-node';
import { hasPlainClientPort, TLS_SECRET_KEYS, ZOOKEEPER_PORTS, type QuorumTlsStep, type TlsSpec, type ZookeeperWorkloadSpec } from '@zk-oam/apis';
import { ZOO_CFG_PLACEHOLDERS } from '../render/layout.js';
import { clientCertificates } from './x509/client-ca-config.js';

/** The member TLS Secret is mounted here; start.sh learns the path from ZK_TLS_DIR. */
export const TLS_MOUNT_PATH = '/zk-oam/tls';

/**
 * ZooKeeper's PEM key store wants the key and the certificate in one file, which neither the controller's Secret nor
 * cert-manager's holds: start.sh writes it from tls.key and tls.crt into a memory-backed emptyDir mounted here (never
 * the data volume, which outlives the pod). start.sh learns the path from ZK_KEY_STORE_DIR.
 */
export const KEY_STORE_MOUNT_PATH = '/zk-oam/key-store';
export const KEY_STORE_FILE = 'keystore.pem';

const { tlsDir, podIP, keyStoreDir } = ZOO_CFG_PLACEHOLDERS;

const WORKLOAD_CA_LOCATION = `${tlsDir}/${TLS_SECRET_KEYS.ca}`;

/** ZooKeeper's PEM key store: the key and certificate in one file; the trust store: the CA(s) peers are checked against. */
function stores(prefix: 'ssl' | 'ssl.quorum', trustStoreLocation: string): [string, string][] {
  return [
    [`${prefix}.keyStore.location`, `${keyStoreDir}/${KEY_STORE_FILE}`],
    [`${prefix}.keyStore.type`, 'PEM'],
    [`${prefix}.trustStore.location`, trustStoreLocation],
    [`${prefix}.trustStore.type`, 'PEM'],
  ];
}

/** zoo.cfg lines for spec.tls (with the client certificates spec.authentication.x509 asks for), the quorum at the given step. */
export function tlsConfigEntries(spec: Pick<ZookeeperWorkloadSpec, 'tls' | 'authentication'>, quorum: QuorumTlsStep): [string, string | number][] {
  return [...clientTlsEntries(spec), ...quorumTlsEntries(quorum)];
}

function clientTlsEntries(spec: Pick<ZookeeperWorkloadSpec, 'tls' | 'authentication'>): [string, string | number][] {
  if (spec.tls.client === 'Disabled') return [];
  const certificates = clientCertificates(spec, WORKLOAD_CA_LOCATION);
  return [
    // The secure client port needs Netty's connection factory (the NIO one speaks plain text only).
    ['serverCnxnFactory', 'org.apache.zookeeper.server.NettyServerCnxnFactory'],
    ['secureClientPort', ZOOKEEPER_PORTS.secureClient],
    ['secureClientPortAddress', podIP],
    ...stores('ssl', certificates.trustStoreLocation),
    // Without x509, encryption only: clients are not asked for a certificate.
    ['ssl.clientAuth', certificates.clientAuth],
  ];
}

/**
 * sslQuorum says how a member connects to the others; portUnification lets its quorum and election ports accept both
 * TLS and plain text, which the two middle steps of a move to TLS need (members on neighbouring steps meet there).
 */
function quorumTlsEntries(step: QuorumTlsStep): [string, string | number][] {
  if (step === 'Plain') return [];
  const acceptsBoth: [string, string][] = step === 'Tls' ? [] : [['portUnification', 'true']];
  return [
    ['sslQuorum', step === 'PlainAcceptingTls' ? 'false' : 'true'],
    ...acceptsBoth,
    ...stores('ssl.quorum', WORKLOAD_CA_LOCATION),
    // Peers are verified by certificate chain to the workload's CA (mutual TLS), not by name: a member accepting a
    // connection checks the peer's source address or its reverse DNS name, which a pod's outgoing connection
    // does not reliably carry, and every member holds the same certificate anyway.
    ['ssl.quorum.hostnameVerification', 'false'],
  ];
}

/** The member certificate a pod template was rendered with: members read it at start, so a new one restarts them. */
export const CERTIFICATE_ANNOTATION = 'zookeeper.zkoam.dev/certificate-sha256';

/** The CAs a pod template was rendered with, while there are several: members read them at start too. */
export const TRUST_BUNDLE_ANNOTATION = 'zookeeper.zkoam.dev/ca-bundle-sha256';

/** The pod template annotations that say which member Secret content the members started with. */
export function tlsPodAnnotations(certificateFingerprint: string | undefined, trustBundleHash: string | undefined): Record<string, string> {
  return {
    ...(certificateFingerprint === undefined ? {} : { [CERTIFICATE_ANNOTATION]: certificateFingerprint }),
    ...(trustBundleHash === undefined ? {} : { [TRUST_BUNDLE_ANNOTATION]: trustBundleHash }),
  };
}

/** The client ports a member serves, as container ports. */
export function clientContainerPorts(tls: TlsSpec): V1ContainerPort[] {
  return [
    ...(hasPlainClientPort(tls) ? [{ name: 'client', containerPort: ZOOKEEPER_PORTS.client }] : []),
    ...(tls.client === 'Disabled' ? [] : [{ name: 'client-tls', containerPort: ZOOKEEPER_PORTS.secureClient }]),
  ];
}

/** The client ports of a Service; `plainPort` is the Service port of the plain one (the secure one's when TLS only). */
export function clientServicePorts(tls: TlsSpec, plainPort: number): V1ServicePort[] {
  if (tls.client === 'Only') return [{ name: 'client-tls', port: plainPort, targetPort: ZOOKEEPER_PORTS.secureClient }];
  return [
    { name: 'client', port: plainPort, targetPort: ZOOKEEPER_PORTS.client },
    ...(tls.client === 'Alongside' ? [{ name: 'client-tls', port: ZOOKEEPER_PORTS.secureClient, targetPort: ZOOKEEPER_PORTS.secureClient }] : []),
  ];
}
