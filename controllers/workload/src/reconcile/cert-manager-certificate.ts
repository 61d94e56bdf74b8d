// The TLS certificates step when spec.tls.certificates names a cert-manager issuer: the controller requests a
// Certificate (owned by the workload) and the members mount the Secret cert-manager writes for it. Nothing here signs
// or writes key material; a missing kind or a Secret not issued yet blocks the workload with a condition saying so.
import type { IssuerRef, ZookeeperWorkload } from '@zk-oam/apis';
import type { KubeClient } from '@zk-oam/runtime';
import { buildCertificate } from '../cert-manager/certificate.js';
import { workloadNames } from '../render/identity.js';
import { issuedSecretVerdict } from '../tls/issued-secret.js';
import { memberCertificateNames } from '../tls/names.js';
import { trustBundleHash } from '../tls/pem.js';
import { applyIfChanged, type ChildAction } from './apply-children.js';
import type { WorkloadReconcilerDependencies } from './dependencies.js';
import { CertificateNotIssuedError, CertManagerMissingError } from './errors.js';
import { certificateResource } from './resource-types.js';
import { decodedData, readLiveSecret } from './secrets.js';
import type { TlsOutcome } from './tls-certificates.js';

type Deps = Pick<WorkloadReconcilerDependencies, 'caches' | 'now' | 'certManagerServed'> & { readonly client: Pick<KubeClient, 'request'> };

export async function ensureCertManagerCertificate(deps: Deps, workload: ZookeeperWorkload, issuerRef: IssuerRef): Promise<TlsOutcome> {
  const { namespace, tlsSecret } = workloadNames(workload);
  const certificate = buildCertificate(workload, issuerRef);
  if (!(await deps.certManagerServed())) throw new CertManagerMissingError(certificate.metadata.name);
  const applied = await applyIfChanged(deps, { resource: certificateResource, cache: 'api' }, certificate, namespace, () => ' (spec changed: cert-manager issues it again)');
  const actions: ChildAction[] = applied === undefined ? [] : [applied];
  const verdictOf = (secret: unknown) =>
    issuedSecretVerdict({ data: secret === undefined ? undefined : decodedData(secret), dnsNames: memberCertificateNames(workload.metadata.name, namespace), now: deps.now() });
  // The cache sees the Secret by the labels the Certificate's secretTemplate asks for; the API, if they were not copied.
  const cached = verdictOf(deps.caches.secrets.get({ namespace, name: tlsSecret }));
  const verdict = cached.usable ? cached : verdictOf(await readLiveSecret(deps, namespace, tlsSecret));
  if (!verdict.usable) throw new CertificateNotIssuedError(certificate.metadata.name, tlsSecret, verdict.problem, actions);
  // cert-manager renews it; the Secret's watch brings the renewal, so no renewal time of our own.
  return { state: { caPem: verdict.caPem, fingerprint: verdict.fingerprint, trustBundleHash: trustBundleHash(verdict.caPem), caRotation: undefined, renewAt: undefined }, actions };
}
