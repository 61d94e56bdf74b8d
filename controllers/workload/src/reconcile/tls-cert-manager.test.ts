// The TLS step with an issuer named, against a fake apiserver: the Certificate is applied once (again only when its
// spec changes), the members wait for the Secret cert-manager writes, and a cluster without cert-manager is told apart.
import { derivedNames } from '@zk-oam/apis';
import { KubeApiError, kubeObjectSchema, type KubeClient, type KubeObject, type Lister } from '@zk-oam/runtime';
import { describe, expect, it } from 'vitest';
import { minimalWorkload, withSpec } from '../render/test-workloads.js';
import { readCa } from '../tls/ca-secret.js';
import { memberCertificateNames } from '../tls/certificate-names.js';
import { issueCaSecretData, issueMemberSecretData } from '../tls/secret-data.js';
import { CertificateNotIssuedError, CertManagerMissingError } from './errors.js';
import { APPLIED_HASH_ANNOTATION } from './resources.js';
import { encoded } from './secrets.js';
import { ensureTlsCertificates } from './tls.js';

const NOW = new Date('2026-11-25T12:00:00Z');
/** The Certificate and the Secret it fills are both named after the member TLS Secret of workload zk. */
const MEMBER_SECRET = derivedNames('zk').tlsSecret;
const CERTIFICATE_PATH = `/apis/cert-manager.io/v1/namespaces/prod/certificates/${MEMBER_SECRET}`;
const SECRET_PATH = `/api/v1/namespaces/prod/secrets/${MEMBER_SECRET}`;

/** Objects by path: GET reads or answers 404, PATCH (apply) stores. Secrets are seen by the cache too. */
function fakeCluster(served = true): { deps: Parameters<typeof ensureTlsCertificates>[0]; objects: Map<string, KubeObject>; writes: string[] } {
  const objects = new Map<string, KubeObject>();
  const writes: string[] = [];
  const client: Pick<KubeClient, 'request'> = {
    request: (method, path, options) => {
      const found = objects.get(path);
      if (method === 'GET') return found === undefined ? Promise.reject(new KubeApiError(404, 'NotFound', method, path, 'not found')) : Promise.resolve(found);
      const body = kubeObjectSchema.parse(options?.body);
      writes.push(`${method} ${path}`);
      objects.set(path, body);
      return Promise.resolve(body);
    },
  };
  const empty: Lister<KubeObject> = { get: () => undefined, list: () => [] };
  const secrets: Lister<KubeObject> = { get: ({ name }) => objects.get(`/api/v1/namespaces/prod/secrets/${name}`), list: () => [] };
  const caches = { workloads: empty, statefulSets: empty, configMaps: empty, services: empty, podDisruptionBudgets: empty, secrets, secretMetadata: empty, pods: empty };
  return { deps: { client, caches, now: () => NOW, certManagerServed: () => Promise.resolve(served) }, objects, writes };
}

const withIssuer = withSpec(minimalWorkload(), (spec) => ({
  ...spec,
  tls: { quorum: true, client: 'Only', certificates: { validityHours: 24, issuerRef: { name: 'ca-issuer', kind: 'Issuer', group: 'cert-manager.io' } } },
}));

/** What cert-manager writes for the Certificate, signed by a CA of the test's. */
async function issuedSecret(): Promise<KubeObject> {
  const reading = await readCa(await issueCaSecretData({ commonName: 'issuer CA', now: NOW }), NOW);
  if (!reading.ok) throw new Error(reading.problem);
  const data = await issueMemberSecretData({ ca: reading.ca, commonName: 'zk.prod', dnsNames: memberCertificateNames('zk', 'prod'), validityHours: 24, now: NOW });
  return { apiVersion: 'v1', kind: 'Secret', metadata: { name: MEMBER_SECRET, namespace: 'prod' }, type: 'kubernetes.io/tls', data: encoded(data) };
}

describe('ensureTlsCertificates with spec.tls.certificates.issuerRef', () => {
  it('says cert-manager is missing when its Certificate kind is not served, and writes nothing', async () => {
    const { deps, writes } = fakeCluster(false);
    await expect(ensureTlsCertificates(deps, withIssuer, undefined)).rejects.toThrow(CertManagerMissingError);
    await expect(ensureTlsCertificates(deps, withIssuer, undefined)).rejects.toThrow(/^Certificate zk-tls cannot be requested: cert-manager's CRDs are not installed/);
    expect(writes).toEqual([]);
  });

  it('applies the Certificate, then waits for its Secret, naming both; the creation is kept for its Event', async () => {
    const { deps, objects, writes } = fakeCluster();
    const waiting = await ensureTlsCertificates(deps, withIssuer, undefined).catch((error: unknown) => error);
    expect(waiting).toBeInstanceOf(CertificateNotIssuedError);
    expect(waiting).toMatchObject({
      message: 'Certificate zk-tls is not issued: its Secret zk-tls does not exist yet',
      reason: 'CertificateNotIssued',
      actions: [{ verb: 'Created', kind: 'Certificate', name: 'zk-tls', note: 'Created Certificate zk-tls' }],
    });
    expect(writes).toEqual([`PATCH ${CERTIFICATE_PATH}`]);
    expect(objects.get(CERTIFICATE_PATH)?.metadata.annotations?.[APPLIED_HASH_ANNOTATION]).toMatch(/^[0-9a-f]{32}$/);

    await expect(ensureTlsCertificates(deps, withIssuer, undefined)).rejects.toMatchObject({ actions: [] });
    expect(writes).toHaveLength(1);
  });

  it('hands the issued Secret to the members: its fingerprint and CA, no renewal time of its own, no key', async () => {
    const { deps, objects } = fakeCluster();
    const secret = await issuedSecret();
    objects.set(SECRET_PATH, secret);
    const outcome = await ensureTlsCertificates(deps, withIssuer, undefined);
    expect(outcome.state).toMatchObject({ renewAt: undefined, caPem: expect.stringContaining('BEGIN CERTIFICATE') as unknown });
    expect(outcome.state?.fingerprint).toMatch(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/);
    expect(JSON.stringify(outcome)).not.toMatch(/PRIVATE KEY/);
    expect(objects.get(SECRET_PATH)).toBe(secret);
  });

  it('applies the Certificate again when its spec changes (a new validity)', async () => {
    const { deps, objects, writes } = fakeCluster();
    objects.set(SECRET_PATH, await issuedSecret());
    await ensureTlsCertificates(deps, withIssuer, undefined);
    const longer = withSpec(withIssuer, (spec) => ({ ...spec, tls: { ...spec.tls, certificates: { ...spec.tls.certificates, validityHours: 48 } } }));
    const outcome = await ensureTlsCertificates(deps, longer, undefined);
    expect(outcome.actions.map((action) => action.note)).toEqual(['Updated Certificate zk-tls (spec changed: cert-manager issues it again)']);
    expect(writes).toEqual([`PATCH ${CERTIFICATE_PATH}`, `PATCH ${CERTIFICATE_PATH}`]);
    expect(objects.get(CERTIFICATE_PATH)?.['spec']).toMatchObject({ duration: '48h', renewBefore: '960m' });
  });
});
