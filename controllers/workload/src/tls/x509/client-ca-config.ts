// What spec.authentication.x509 renders into a member: the client CA Secret's mount, and how the secure client port
// asks for a certificate and checks it (the provider: render/zoo-cfg.ts). Pure.
//
// Checked in Debian's ZooKeeper 3.8.0 jar (javap of org.apache.zookeeper.server.auth.X509AuthenticationProvider,
// NettyServerCnxnFactory$CertificateVerifier and util.PemReader), and on the bed (test/e2e/workload-x509.test.ts):
// - The provider builds its trust manager from the client TLS properties, zookeeper.ssl.trustStore.location/.type
//   (zoo.cfg ssl.trustStore.*, which ZooKeeper sets as zookeeper.* system properties); the secure port's handshake
//   trusts the same store. So ssl.trustStore is the user's client CA, while ssl.quorum.trustStore stays the workload CA.
// - A client whose certificate chains to it is authenticated as x509:<its subject's X500 principal name> (RFC 2253,
//   e.g. CN=alice,O=example); 3.8 has no subjectAltName option. A presented certificate it does not trust gets no
//   session (the provider answers AUTHFAILED and the verifier closes the connection). Java's client, told in the
//   handshake which CAs the member trusts, presents no certificate of another CA: it connects without an identity.
// - With ssl.clientAuth=want, a client presenting no certificate is accepted without an x509 identity (the verifier
//   catches the SSLPeerUnverifiedException unless clientAuth is need). That is chosen over need: the controllers' own
//   session over TLS (controllers/zookeeper/src/wire/wire-session.ts) presents no certificate and logs in as the digest
//   superuser. Unauthenticated sessions stay possible, as with SASL; ACLs protect the data.
// - The PEM trust store (util.PemReader.loadTrustStore) loads every certificate of the file, so ca.crt may hold several
//   CAs; each is kept under its subject name, so two with one subject are refused (client-ca-secret.ts).
// - Member TLS settings are read once at start (no file reloading for the client port): a new CA restarts the members.
import type { V1Volume } from '@kubernetes/client-node';
import { CLIENT_CA_SECRET_KEYS, type ZookeeperWorkloadSpec } from '@zk-oam/apis';
import { ZOO_CFG_PLACEHOLDERS } from '../../render/layout.js';

/** The client CA Secret's ca.crt is mounted here; start.sh learns the path from ZK_CLIENT_CA_DIR. */
export const CLIENT_CA_MOUNT_PATH = '/zk-oam/client-ca';

/** Where start.sh finds the client CA; unset when the workload has no x509 authentication. */
export const CLIENT_CA_DIR_ENV = 'ZK_CLIENT_CA_DIR';

/**
 * The SHA-256 of the client CA a pod template was rendered with: members read it at start, so a new one restarts them.
 * A digest of ca.crt rather than the Secret's resourceVersion: the Secret is the user's, and a label or another key
 * changing must not restart the ensemble.
 */
export const CLIENT_CA_ANNOTATION = 'zookeeper.zkoam.dev/client-ca-sha256';

export function usesX509(spec: Pick<ZookeeperWorkloadSpec, 'authentication'>): boolean {
  return spec.authentication?.x509 !== undefined;
}

/** How the secure client port treats client certificates, and what its trust store (ssl.trustStore) holds. */
export interface ClientCertificates {
  readonly clientAuth: 'none' | 'want';
  readonly trustStoreLocation: string;
}

/**
 * Without x509 the client trust store is never consulted (no certificate is asked for); it stays the workload CA, as
 * before. With x509 it is the user's client CA, and a certificate is asked for, not required (see above).
 */
export function clientCertificates(spec: Pick<ZookeeperWorkloadSpec, 'authentication'>, workloadCaLocation: string): ClientCertificates {
  return usesX509(spec)
    ? { clientAuth: 'want', trustStoreLocation: `${ZOO_CFG_PLACEHOLDERS.clientCaDir}/${CLIENT_CA_SECRET_KEYS.ca}` }
    : { clientAuth: 'none', trustStoreLocation: workloadCaLocation };
}

/** The user's client CA Secret, only its ca.crt: public certificates, so readable by all. */
export function clientCaVolume(spec: Pick<ZookeeperWorkloadSpec, 'authentication'>, name: string): V1Volume[] {
  const x509 = spec.authentication?.x509;
  if (x509 === undefined) return [];
  const key = CLIENT_CA_SECRET_KEYS.ca;
  return [{ name, secret: { secretName: x509.clientCaSecretRef.name, items: [{ key, path: key }], defaultMode: 0o444 } }];
}
