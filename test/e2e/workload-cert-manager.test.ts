// A workload whose certificates come from cert-manager (spec.tls.certificates.issuerRef), on the bed with cert-manager's
// REAL CRDs (v1.16.2's, fetched by test/cert-manager/build.sh) and no cert-manager controller: first without the CRDs
// (CertManagerMissing); then the Certificate the controller requests, accepted by the real schema, and the members
// waiting for its Secret (CertificateNotIssued); then a FAKE issuer plays cert-manager's part (test CA, Secret in
// cert-manager's layout), the TLS-only ensemble becomes Ready and `openssl s_client -verify_return_error` verifies a
// member's chain to that CA; a renewal by the fake restarts every member onto the new serial (natively, then through a
// bound rolling trait, which observes the TLS-only members over TLS: followers first, the leader last); a rolling trait
// asking for a leader handover by reconfig is not bound on a TLS-only ensemble. No key in logs, Events, status.
import { execFile } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { CustomObjectsApi, type V1Pod } from '@kubernetes/client-node';
import { derivedNames, memberHost, memberSelectorOf, workloadLabels, ZOOKEEPER_PORTS, ZOOKEEPER_ROLLING, ZOOKEEPER_WORKLOAD, type ZookeeperWorkload } from '@zk-oam/apis';
import { CERTIFICATE_ANNOTATION } from '@zk-oam/workload';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CERTIFICATES, FakeCertManager, type FakeIssuance } from '../src/cert-manager/fake-issuer.js';
import { builtBy } from '../src/controllers/go-built.js';
import { crdNamesIn, installCrdsFrom } from '../src/controllers/manifests.js';
import { bedWorkloadSpec, condition, eventsAbout, eventSentences, isReady, kubectl, memberPodSource, PodHistory, useWorkloadController, waitFor } from '../src/controllers/index.js';
import { RollingClient, rollingCondition } from './rolling-fixtures.js';
import { ROLL_TIMEOUT_MS, RollScenario, useRollingController } from './rolling-scenario.js';
import { workerBed } from '../src/worker-bed.js';
import { resolveThrough } from '../src/bed/cluster-dns.js';
import { PooledKubeConfig } from '@zk-oam/runtime';

const run = promisify(execFile);
const bed = workerBed();
// Discovery is asked again every second, so installing the CRDs mid-test is seen at once.
const suite = useWorkloadController(bed, { namespacePrefix: 'wl-cm', env: { MONITORING_DISCOVERY_TTL_MS: '1000' } });
const { client, namespace } = suite;
const traits = new RollingClient(bed);
useRollingController(bed);
const ENSEMBLE_TIMEOUT_MS = 420_000;
const ISSUER = { name: 'fake-ca', kind: 'Issuer', group: 'cert-manager.io' } as const;
const tlsSpec = (validityHours: number) => bedWorkloadSpec({ tls: { quorum: true, client: 'Only', certificates: { validityHours, issuerRef: { name: ISSUER.name } } } });

const crdDir = (): string => builtBy('cert-manager');

async function memberPods(name: string): Promise<V1Pod[]> {
  return (await client.core.listNamespacedPod({ namespace, labelSelector: memberSelectorOf(name) })).items;
}

function healthy(workload: ZookeeperWorkload): boolean {
  const status = workload.status;
  return isReady(workload) && status?.leader !== undefined && status.members?.length === 3 && status.members.every((member) => member.synced);
}

/**
 * The certificate a member serves on its secure port, as `openssl s_client -verify_return_error` against the CA got it,
 * at the address cluster DNS gives its name now (a member restarted again is at another address).
 */
async function servedCertificate(pod: V1Pod, caFile: string, name: string): Promise<{ output: string; certificate: X509Certificate }> {
  const host = memberHost(name, namespace, Number(pod.metadata?.name?.split('-').pop()));
  const [address] = await resolveThrough(bed.network.dnsServiceIp, host);
  if (address === undefined) throw new Error(`cluster DNS does not resolve ${host}`);
  const { stdout } = await run('bash', [
    '-c',
    'openssl s_client -connect "$0" -CAfile "$1" -verify_return_error -verify_hostname "$2" -showcerts </dev/null 2>&1',
    `${address}:${String(ZOOKEEPER_PORTS.secureClient)}`,
    caFile,
    host,
  ]);
  return { output: stdout, certificate: new X509Certificate(stdout.slice(stdout.indexOf('-----BEGIN CERTIFICATE-----'))) };
}

/**
 * What a member serves once it serves the certificate with `serial`: the workload's status may come from the look
 * before the last member (re)started, so each member is asked until it answers.
 */
async function servedOnceIssued(pod: V1Pod, caFile: string, name: string, serial: string): Promise<{ output: string; certificate: X509Certificate }> {
  const served = await waitFor(
    `${pod.metadata?.name ?? ''} to serve the certificate with serial ${serial}`,
    () => servedCertificate(pod, caFile, name).catch(() => undefined),
    (seen) => seen?.certificate.serialNumber === serial,
    60_000,
  );
  if (served === undefined) throw new Error(`${pod.metadata?.name ?? ''} served nothing`);
  return served;
}

async function removeCertManagerCrds(): Promise<void> {
  await kubectl(bed, ['delete', 'crd', '--ignore-not-found', '--wait', ...(await crdNamesIn(crdDir()))]);
}

describe('a workload naming a cert-manager issuer, in a cluster without cert-manager', () => {
  it('gets Ready=False CertManagerMissing naming the Certificate, a Warning Event, and no members', async () => {
    await removeCertManagerCrds();
    const name = 'zk-no-cm';
    await client.create(namespace, name, tlsSpec(24));
    const workload = await waitFor('Ready=False CertManagerMissing', () => client.get(namespace, name), (seen) => condition(seen, 'Ready')?.reason === 'CertManagerMissing', 60_000);
    const message =
      "Certificate zk-no-cm-tls cannot be requested: cert-manager's CRDs are not installed (the cluster does not serve " +
      'certificates.cert-manager.io/v1); install cert-manager, or remove spec.tls.certificates.issuerRef';
    expect(condition(workload, 'Ready')).toMatchObject({ status: 'False', message });
    const warnings = (await eventsAbout(client, namespace, name)).filter((event) => event.type === 'Warning');
    expect(warnings.map((event) => [event.reason, event.note])).toContainEqual(['CertManagerMissing', message]);
    expect(await memberPods(name)).toEqual([]);
    await client.delete(namespace, name);
  });
});

describe('the CRD', () => {
  it('refuses a CA Secret and a cert-manager issuer together', async () => {
    const both = bedWorkloadSpec({ tls: { quorum: true, certificates: { caSecretRef: { name: 'ca' }, issuerRef: { name: ISSUER.name } } } });
    await expect(client.create(namespace, 'zk-both', both)).rejects.toThrow(/tls.certificates takes caSecretRef or issuerRef, not both/);
  });
});

describe("a workload naming a cert-manager issuer, with cert-manager's CRDs installed and a fake issuer", () => {
  const name = 'zk';
  const names = derivedNames(name);
  let fake: FakeCertManager;
  let first: FakeIssuance;

  beforeAll(async () => {
    const started = Date.now();
    await installCrdsFrom(bed, crdDir());
    console.log(`cert-manager's CRDs installed and Established in ${String(Date.now() - started)} ms: ${(await crdNamesIn(crdDir())).join(', ')}`);
    fake = await FakeCertManager.start(bed.kubeconfig);
  });

  afterAll(async () => {
    await fake.stop();
    await client.delete(namespace, name).catch(() => undefined);
    // The bed is shared by the run's files: leave it without cert-manager's kinds, as it was.
    await removeCertManagerCrds();
  });

  it('requests a Certificate the real CRD accepts: issuerRef, secretName, the members\' names, both usages, duration, renewBefore, owner', async () => {
    await client.create(namespace, name, tlsSpec(24));
    const certificate = await waitFor('the Certificate', () => fake.certificate(namespace, names.tlsSecret).catch(() => undefined), (seen) => seen !== undefined, 60_000);
    const workload = await client.get(namespace, name);
    expect(certificate?.metadata).toMatchObject({
      name: names.tlsSecret,
      ownerReferences: [{ kind: ZOOKEEPER_WORKLOAD.kind, name, uid: workload.metadata.uid, controller: true, blockOwnerDeletion: true }],
    });
    // As stored by the apiserver after the real schema's pruning and defaulting: nothing dropped, nothing added.
    expect(certificate?.spec).toEqual({
      secretName: names.tlsSecret,
      secretTemplate: { labels: workloadLabels(name) },
      dnsNames: [
        `*.${names.headlessService}.${namespace}`,
        `*.${names.headlessService}.${namespace}.svc`,
        `*.${names.headlessService}.${namespace}.svc.cluster.local`,
        names.clientService,
        `${names.clientService}.${namespace}`,
        `${names.clientService}.${namespace}.svc`,
        `${names.clientService}.${namespace}.svc.cluster.local`,
      ],
      duration: '24h',
      renewBefore: '480m',
      usages: ['digital signature', 'key encipherment', 'server auth', 'client auth'],
      privateKey: { algorithm: 'ECDSA', size: 256, encoding: 'PKCS8', rotationPolicy: 'Always' },
      issuerRef: ISSUER,
    });
    // The real schema refuses what it does not know: the same object with a misspelt field is refused by a dry run.
    const kubeConfig = new PooledKubeConfig();
    kubeConfig.loadFromFile(bed.kubeconfig);
    const strictDryRun = (spec: unknown): Promise<unknown> =>
      kubeConfig.makeApiClient(CustomObjectsApi).createNamespacedCustomObject({
        ...CERTIFICATES,
        namespace,
        body: { apiVersion: 'cert-manager.io/v1', kind: 'Certificate', metadata: { name: 'schema-check' }, spec },
        dryRun: 'All',
        fieldValidation: 'Strict',
      });
    await expect(strictDryRun(certificate?.spec)).resolves.toBeDefined();
    await expect(strictDryRun({ ...certificate?.spec, renewBefor: '1h' })).rejects.toThrow(/renewBefor/);
  });

  it('waits for the Secret with Ready=False CertificateNotIssued naming the Certificate and the Secret; no members yet', async () => {
    const workload = await waitFor('Ready=False CertificateNotIssued', () => client.get(namespace, name), (seen) => condition(seen, 'Ready')?.reason === 'CertificateNotIssued', 60_000);
    const message = `Certificate ${names.tlsSecret} is not issued: its Secret ${names.tlsSecret} does not exist yet`;
    expect(condition(workload, 'Ready')).toMatchObject({ status: 'False', message });
    const events = await eventsAbout(client, namespace, name);
    expect(events.flatMap((event) => eventSentences([event]).map((sentence) => [event.type, event.reason, sentence]))).toEqual(
      expect.arrayContaining([
        ['Normal', 'Created', `Created Certificate ${names.tlsSecret}`],
        ['Warning', 'CertificateNotIssued', message],
      ]),
    );
    expect(await memberPods(name)).toEqual([]);
  });

  it("becomes Ready over TLS once the fake issuer writes the Secret; openssl verifies each member's chain to the issuer's CA", async () => {
    const started = Date.now();
    first = await fake.issue(namespace, names.tlsSecret);
    await waitFor('the workload Ready with a leader and 3 synced members', () => client.get(namespace, name), healthy, ENSEMBLE_TIMEOUT_MS);
    console.log(`Ready ${String(Math.round((Date.now() - started) / 1000))} s after the fake issuer wrote the Secret`);
    const fingerprint = new X509Certificate(first.certificatePem).fingerprint256;
    for (const pod of await memberPods(name)) {
      expect(pod.metadata?.annotations?.[CERTIFICATE_ANNOTATION]).toBe(fingerprint);
      const served = await servedOnceIssued(pod, fake.caFile, name, first.serial);
      expect(served.output).toContain('Verification: OK');
      expect(served.output).toContain(`Verified peername: *.${names.headlessService}.${namespace}.svc.cluster.local`);
      expect(served.certificate.serialNumber).toBe(first.serial);
      expect(served.certificate.issuer).toBe('CN=fake cert-manager test CA');
    }
    // The controller never writes cert-manager's Secret: no owner, no field of ours.
    const secret = await client.core.readNamespacedSecret({ namespace, name: names.tlsSecret });
    expect(secret.metadata?.ownerReferences).toBeUndefined();
    expect(secret.metadata?.managedFields?.map((entry) => entry.manager)).toEqual(['fake-cert-manager']);
  }, ENSEMBLE_TIMEOUT_MS + 60_000);

  it('restarts every member onto a certificate the issuer renews, and is Ready again', async () => {
    const before = await memberPods(name);
    const started = Date.now();
    const renewed = await fake.issue(namespace, names.tlsSecret);
    expect(renewed.serial).not.toBe(first.serial);
    const fingerprint = new X509Certificate(renewed.certificatePem).fingerprint256;
    await waitFor(
      'every member replaced onto the renewed certificate, and the ensemble Ready',
      async () => ({ workload: await client.get(namespace, name), pods: await memberPods(name) }),
      ({ workload, pods }) =>
        healthy(workload) &&
        pods.length === 3 &&
        pods.every((pod) => pod.metadata?.annotations?.[CERTIFICATE_ANNOTATION] === fingerprint && !before.some((old) => old.metadata?.uid === pod.metadata?.uid)),
      ENSEMBLE_TIMEOUT_MS,
    );
    console.log(`members restarted onto the renewed certificate and Ready ${String(Math.round((Date.now() - started) / 1000))} s after the renewal`);
    for (const pod of await memberPods(name)) {
      expect((await servedOnceIssued(pod, fake.caFile, name, renewed.serial)).output).toContain('Verification: OK');
    }
  }, ENSEMBLE_TIMEOUT_MS + 60_000);

  it('rolls a renewal through a bound rolling trait: followers first, the leader last', async () => {
    const scenario = new RollScenario({ client, traits, namespace, workload: name, trait: 'roll', members: 3 });
    await traits.create(namespace, 'roll', name);
    await waitFor('the rolling trait bound and idle', () => scenario.trait(), (trait) => rollingCondition(trait, 'Bound')?.status === 'True' && trait.status?.phase === 'Idle', 60_000);
    const leader = (await scenario.waitHealthy()).status?.leader ?? '';
    const history = new PodHistory(memberPodSource(client, namespace, name), 3);
    await history.start();
    const started = new Date();
    const renewed = await fake.issue(namespace, names.tlsSecret);
    const completed = await scenario.waitCompleted('the roll onto the renewed certificate to complete', started);
    await scenario.waitHealthy();
    await history.stop();
    console.log(`renewal rolled by the trait, leader ${leader} last, in ${String(Math.round((Date.now() - started.getTime()) / 1000))} s`);
    expect(history.counts()).toEqual(scenario.onePerPod());
    expect(history.order()).toEqual(scenario.expectedOrder(leader));
    expect(history.mostDown).toBe(1);
    expect(completed.status).toMatchObject({ updatedReplicas: 3, pendingReplicas: 0, leaderRestarted: true });
    const events = await eventsAbout(client, namespace, 'roll', ZOOKEEPER_ROLLING.kind);
    expect(events.some((event) => event.reason === 'RollingCompleted')).toBe(true);
    for (const pod of await memberPods(name)) {
      expect((await servedOnceIssued(pod, fake.caFile, name, renewed.serial)).output).toContain('Verification: OK');
    }
    await traits.delete(namespace, 'roll');
  }, ROLL_TIMEOUT_MS + ENSEMBLE_TIMEOUT_MS);

  it('does not bind a rolling trait asking for a handover by reconfig on this TLS-only ensemble, and says why', async () => {
    await traits.create(namespace, 'handover', name, { leaderHandover: 'Reconfigure' });
    const refused = await waitFor('the handover trait refused', () => traits.get(namespace, 'handover'), (trait) => trait.status?.phase === 'Blocked', 60_000);
    expect(rollingCondition(refused, 'Bound')).toMatchObject({
      status: 'False',
      reason: 'TlsOnlyUnsupported',
      message: expect.stringContaining('a leader handover by reconfig is not supported there yet') as unknown,
    });
    expect(refused.metadata.finalizers ?? []).toEqual([]);
    await traits.delete(namespace, 'handover');
  });

  it('writes no key or certificate to its log, Events or status', async () => {
    const log = await readFile(suite.controller().logFile, 'utf8');
    expect(log.length).toBeGreaterThan(0);
    expect(log).not.toMatch(/PRIVATE KEY|BEGIN CERTIFICATE|LS0tLS1CRUdJTi/);
    const notes = (await eventsAbout(client, namespace, name)).map((event) => event.note ?? '').join('\n');
    expect(notes).not.toMatch(/PRIVATE KEY|BEGIN CERTIFICATE|LS0tLS1CRUdJTi/);
    expect(JSON.stringify((await client.get(namespace, name)).status)).not.toMatch(/PRIVATE KEY|BEGIN CERTIFICATE|LS0tLS1CRUdJTi/);
  });
});
