// The cert-manager Certificate that asks an issuer for the member certificate when spec.tls.certificates names one:
// the same Secret, names and usages as the certificate the controller would issue itself. Pure.
import { CERT_MANAGER_GROUP, DEFAULT_VALIDITY_HOURS, type IssuerRef, type ZookeeperWorkload } from '@zk-oam/apis';
import { childMetadata, workloadLabels, workloadNames } from '../../render/identity.js';
import { memberCertificateNames } from '../certificate-names.js';

export const CERTIFICATE_API_VERSION = `${CERT_MANAGER_GROUP}/v1`;

/** The fields of a cert-manager.io/v1 Certificate this controller sets; the CRD's schema is cert-manager's. */
export interface CertificateObject {
  apiVersion: typeof CERTIFICATE_API_VERSION;
  kind: 'Certificate';
  metadata: ReturnType<typeof childMetadata>;
  spec: {
    secretName: string;
    secretTemplate: { labels: Record<string, string> };
    dnsNames: string[];
    duration: string;
    renewBefore: string;
    usages: string[];
    privateKey: { algorithm: 'ECDSA'; size: 256; encoding: 'PKCS8'; rotationPolicy: 'Always' };
    issuerRef: { name: string; kind: string; group: string };
  };
}

/**
 * `renewBefore` is renewBeforeMinutes, or else a third of `duration`, as the controller renews its own; in minutes,
 * since a third of a whole number of hours is always a whole number of minutes (validityHours × 20).
 */
export function certificateLifetime(validityHours: number, renewBeforeMinutes: number | undefined): { duration: string; renewBefore: string } {
  return { duration: `${String(validityHours)}h`, renewBefore: `${String(renewBeforeMinutes ?? validityHours * 20)}m` };
}

export function buildCertificate(workload: ZookeeperWorkload, issuerRef: IssuerRef): CertificateObject {
  const names = workloadNames(workload);
  const certificates = workload.spec.tls.certificates;
  return {
    apiVersion: CERTIFICATE_API_VERSION,
    kind: 'Certificate',
    metadata: childMetadata(workload, names.tlsSecret),
    spec: {
      // The Secret the pods mount, in cert-manager's layout (tls.crt, tls.key, ca.crt), which is the controller's too.
      secretName: names.tlsSecret,
      // Labelled like every child, so the controller's Secret cache sees it and a renewal enqueues the workload.
      secretTemplate: { labels: workloadLabels(workload) },
      dnsNames: memberCertificateNames(names.workload, names.namespace),
      ...certificateLifetime(certificates?.validityHours ?? DEFAULT_VALIDITY_HOURS, certificates?.renewBeforeMinutes),
      // Quorum TLS is mutual: each member presents this certificate as a server and as a client.
      usages: ['digital signature', 'key encipherment', 'server auth', 'client auth'],
      // What the controller's own certificates use; a new key at every renewal.
      privateKey: { algorithm: 'ECDSA', size: 256, encoding: 'PKCS8', rotationPolicy: 'Always' },
      issuerRef: { name: issuerRef.name, kind: issuerRef.kind, group: issuerRef.group },
    },
  };
}
