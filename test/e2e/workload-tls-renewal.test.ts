// A renewal of the member certificate by time alone (issue 14), real ZooKeeper on the bed: a 3-member ensemble with
// quorum TLS and a secure client port beside the plain one, a bound rolling trait, and ZooKeeper's Java client writing
// over TLS throughout. Nothing touches the Secret: renewBeforeMinutes is moved so that the certificate in use falls due
// half a minute to a minute and a half later (the certificate is not issued again by the change itself), the controller
// comes back at that time although its observer period is five minutes, issues the certificate again, and the rolling
// trait restarts every member onto it, followers first and the leader last. No acknowledged write is lost. The CRD refuses a renewal no
// earlier than issuance. How late after due it is issued is a figure: `npm run bench:renewal` prints it.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { derivedNames, kubernetesTime, memberSelectorOf } from '@zk-oam/apis';
import { DEFAULT_PERIOD_JITTER } from '@zk-oam/runtime';
import { afterAll, describe, expect, it } from 'vitest';
import { bedWorkloadSpec, eventsAbout, eventSentences, memberPodSource, PodHistory, useWorkloadController, waitFor } from '../src/controllers/index.js';
import { JavaWriter } from '../src/ensemble-probe/index.js';
import { RollingClient, rollingCondition } from './rolling-fixtures.js';
import { RollScenario, useRollingController } from './rolling-scenario.js';
import { issuedCertificate, renewalDueSoon, secureConnectString, servedSerial, writeCaFile, writerSummary } from './tls-fixtures.js';
import { workerBed } from '../src/worker-bed.js';

const bed = workerBed();
/**
 * Five minutes between timed looks of a Ready ensemble, longer than from the change of renewBeforeMinutes to the
 * renewal: a renewal on time shows the reconcile came back for it, not a look that happened to fall then.
 */
const IDLE_PERIOD_MS = 300_000;
const suite = useWorkloadController(bed, { namespacePrefix: 'tls-renewal', env: { IDLE_PERIOD_MS: String(IDLE_PERIOD_MS) } });
const { client, namespace } = suite;
useRollingController(bed);
const traits = new RollingClient(bed);
const WORKLOAD = 'zkr';
const TRAIT = 'roll';
const MEMBERS = 3;
const scenario = new RollScenario({ client, traits, namespace, workload: WORKLOAD, trait: TRAIT, members: MEMBERS });
const tlsWorkload = { client, namespace, workload: WORKLOAD };
const dir = await mkdtemp(join(tmpdir(), 'workload-tls-renewal-'));
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const MINUTE_MS = 60_000;
/**
 * The renewal falls due this long after the change of renewBeforeMinutes, or up to a minute more (whole minutes). It
 * leaves the controller that long to take the change in (seconds) before the test checks the certificate is still kept,
 * and due plus a minute stays well before EARLIEST_TIMED_LOOK_MS.
 */
const DUE_AFTER_MS = 30_000;
/** A renewal 40 minutes after issuance of a one-hour certificate: none during the test unless the test moves it. */
const QUIET_RENEW_BEFORE_MINUTES = 20;
/**
 * The soonest a timed look can follow a reconcile: the pacer moves each period by up to its jitter either way. Every
 * reconcile after the change puts the next timed look further off, so a renewal before this much time after the change
 * was the reconcile coming back at the renewal time (a timed look would be 105 s after due at the least).
 */
const EARLIEST_TIMED_LOOK_MS = IDLE_PERIOD_MS * (1 - DEFAULT_PERIOD_JITTER);
const seconds = (ms: number): string => `${(ms / 1_000).toFixed(1)} s`;

describe('renewal of the member certificate by time, rolled out leader last while a client writes over TLS', () => {
  it('refuses a renewBeforeMinutes no shorter than the validity, the default validity included', async () => {
    const early = (certificates: { validityHours?: number; renewBeforeMinutes: number }) =>
      client.create(namespace, 'zk-early', bedWorkloadSpec({ replicas: 1, tls: { quorum: true, certificates } }));
    const message = /tls.certificates.renewBeforeMinutes must be less than the validity, validityHours × 60 minutes/;
    await expect(early({ validityHours: 1, renewBeforeMinutes: 60 })).rejects.toThrow(message);
    await expect(early({ renewBeforeMinutes: 8_760 * 60 })).rejects.toThrow(message);
  });

  it('issues the certificate again when it falls due, restarts every member onto it, the leader last, and loses no write', async () => {
    await client.create(
      namespace,
      WORKLOAD,
      bedWorkloadSpec({ replicas: MEMBERS, tls: { quorum: true, client: 'Alongside', certificates: { validityHours: 1, renewBeforeMinutes: QUIET_RENEW_BEFORE_MINUTES } } }),
    );
    await scenario.waitHealthy();
    await traits.create(namespace, TRAIT, WORKLOAD);
    await waitFor('the rolling trait bound and idle', () => scenario.trait(), (trait) => rollingCondition(trait, 'Bound')?.status === 'True' && trait.status?.phase === 'Idle', 60_000);
    const caFile = await writeCaFile(tlsWorkload, dir);
    const writer = await JavaWriter.start({ caFile, resolvConf: bed.resolvConf }, await secureConnectString(tlsWorkload), '/tls-renewal-writes');
    const leader = (await scenario.waitHealthy()).status?.leader ?? '';
    const history = new PodHistory(memberPodSource(client, namespace, WORKLOAD), MEMBERS);
    await history.start();

    // Due in 30 to 90 s.
    const first = await issuedCertificate(tlsWorkload);
    const { renewBeforeMinutes, dueAt } = renewalDueSoon(first, DUE_AFTER_MS);
    const writesBefore = writer.count;
    const patchedAt = Date.now();
    await client.patch(namespace, WORKLOAD, { spec: { tls: { certificates: { renewBeforeMinutes } } } });

    // The change alone issues nothing: once the controller has taken it in, the certificate in use is still kept.
    const generation = (await client.get(namespace, WORKLOAD)).metadata.generation;
    await waitFor('the controller to observe the change', () => client.get(namespace, WORKLOAD), (workload) => workload.status?.observedGeneration === generation, 60_000, 250);
    expect((await issuedCertificate(tlsWorkload)).serialNumber).toBe(first.serialNumber);
    const renewed = await waitFor(
      'the member certificate issued again by the reconcile coming back at its renewal time, before any timed look',
      () => issuedCertificate(tlsWorkload),
      (certificate) => certificate.serialNumber !== first.serialNumber,
      patchedAt + EARLIEST_TIMED_LOOK_MS - Date.now(),
    );
    // The next renewal of the new certificate would be a minute or two away: moved out of the test's time.
    await client.patch(namespace, WORKLOAD, { spec: { tls: { certificates: { renewBeforeMinutes: QUIET_RENEW_BEFORE_MINUTES } } } });
    // Issued certificates are backdated 5 minutes (tls/secret-data.ts); X.509 times are whole seconds.
    const issuedAt = new Date(renewed.validFrom).getTime() + 5 * MINUTE_MS;

    const completed = await scenario.waitCompleted('the roll onto the renewed certificate to complete', dueAt);
    await scenario.waitHealthy();
    await history.stop();
    const writesDuring = writer.count - writesBefore;
    const report = await writer.stop();
    const completedAt = new Date(completed.status?.completedAt ?? 0).getTime();
    console.log(writerSummary('quorum TLS, client TLS alongside plain: a renewal by time rolled out leader last', report, [writesDuring]));
    console.log(
      `renewal: renewBeforeMinutes ${String(renewBeforeMinutes)} set ${seconds(dueAt.getTime() - patchedAt)} before due ` +
        `(observer period ${seconds(IDLE_PERIOD_MS)}); roll completed ${seconds(completedAt - issuedAt)} after issuance`,
    );

    expect(issuedAt).toBeGreaterThanOrEqual(dueAt.getTime());
    const secretUpdates = eventSentences(await eventsAbout(client, namespace, WORKLOAD)).filter((sentence) => sentence.startsWith(`Updated Secret ${derivedNames(WORKLOAD).tlsSecret} `));
    expect(secretUpdates).toEqual([
      `Updated Secret ${derivedNames(WORKLOAD).tlsSecret} (member certificate until ${kubernetesTime(new Date(renewed.validTo))}: renewal due since ${kubernetesTime(dueAt)})`,
    ]);
    expect(report.lost).toEqual([]);
    expect(writesDuring).toBeGreaterThan(0);
    expect(history.counts()).toEqual(scenario.onePerPod());
    expect(history.order()).toEqual(scenario.expectedOrder(leader));
    expect(history.mostDown).toBe(1);
    expect(completed.status).toMatchObject({ updatedReplicas: MEMBERS, pendingReplicas: 0, leaderRestarted: true });
    // One renewal only, and every member serves it.
    expect((await issuedCertificate(tlsWorkload)).serialNumber).toBe(renewed.serialNumber);
    const pods = (await client.core.listNamespacedPod({ namespace, labelSelector: memberSelectorOf(WORKLOAD) })).items;
    for (const pod of pods) {
      expect(await servedSerial(pod.status?.podIP ?? '', caFile)).toBe(renewed.serialNumber);
    }
  });
});
