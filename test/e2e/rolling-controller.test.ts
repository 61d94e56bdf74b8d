// The rolling controller as a process with only deploy/rolling RBAC, against real ZooKeeper on the bed, restarting the
// leader in place (the default leaderHandover, Election; rolling-handover.test.ts has the handover). One bound
// 5-member workload carries the scenarios in turn (template roll, trigger roll with controller kills, lock wait and a
// member failure mid-roll, two at a time with its NATS events, unbinding); one unbound 5-member workload rolls natively beside the first as the baseline.
import { AppsV1Api } from '@kubernetes/client-node';
import { disruptionLeaseName, disruptionLockHolder, ROLLING_BINDING_ANNOTATION, statefulSetNameOf, ZOOKEEPER_ROLLING, ZOOKEEPER_WORKLOAD, type ZookeeperRolling } from '@zk-oam/apis';
import { KubeClient, ObjectLock, PooledKubeConfig } from '@zk-oam/runtime';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { bedWorkloadSpec, eventsAbout, memberPodSource, PodHistory, reconcilesRun, useWorkloadController, waitControllerReady, waitFor } from '../src/controllers/index.js';
import { figures, probeEnsemble, recordEvents, RollingClient, rollingCondition, zookeeperPid } from './rolling-fixtures.js';
import { ROLL_TIMEOUT_MS, RollScenario, useRollingController } from './rolling-scenario.js';
import { workerBed } from '../src/worker-bed.js';

const bed = workerBed();
const suite = useWorkloadController(bed, { namespacePrefix: 'rolling', env: { IDLE_PERIOD_MS: '2000' } });
const { client, namespace } = suite;
const traits = new RollingClient(bed);
const kubeConfig = new PooledKubeConfig();
kubeConfig.loadFromFile(bed.kubeconfig);
const apps = kubeConfig.makeApiClient(AppsV1Api);

const BOUND = 'zkb';
const NATIVE = 'zkn';
const TRAIT = 'roll';
const MEMBERS = 5;
const scenario = new RollScenario({ client, traits, namespace, workload: BOUND, trait: TRAIT, members: MEMBERS });
const PODS = scenario.pods;
const controllerProcess = useRollingController(bed);
const trait = (): Promise<ZookeeperRolling> => scenario.trait();
/** Reconciles the rolling controller's current process has run; a restarted one counts from 0. */
const reconciles = (): Promise<number> => reconcilesRun(controllerProcess());

async function updateStrategy(workload: string): Promise<string | undefined> {
  return (await apps.readNamespacedStatefulSet({ namespace, name: statefulSetNameOf(workload) })).spec?.updateStrategy?.type;
}

describe('the rolling controller on the bed', () => {
  it('binds to its workload: the StatefulSet uses OnDelete, the unbound one RollingUpdate', async () => {
    await Promise.all([client.create(namespace, BOUND, bedWorkloadSpec({ replicas: MEMBERS })), client.create(namespace, NATIVE, bedWorkloadSpec({ replicas: MEMBERS }))]);
    await traits.create(namespace, TRAIT, BOUND);

    await Promise.all([scenario.waitHealthy(BOUND), scenario.waitHealthy(NATIVE)]);
    const bound = await waitFor('the trait to be bound and idle', trait, (current) => rollingCondition(current, 'Bound')?.status === 'True' && current.status?.phase === 'Idle', 60_000);

    expect(bound.metadata.ownerReferences).toEqual([expect.objectContaining({ kind: 'ZookeeperWorkload', name: BOUND })]);
    expect(bound.metadata.finalizers).toContain('rolling.zookeeper.zkoam.dev/unbind');
    expect((await client.get(namespace, BOUND)).metadata.annotations?.[ROLLING_BINDING_ANNOTATION]).toBe(TRAIT);
    expect(await updateStrategy(BOUND)).toBe('OnDelete');
    expect(await updateStrategy(NATIVE)).toBe('RollingUpdate');
  });

  it('rolls a template change followers first, highest ordinal first, the leader last, every pod once; the unbound one rolls natively', async () => {
    const leader = (await scenario.waitHealthy(BOUND)).status?.leader ?? '';
    const nativeLeader = (await scenario.waitHealthy(NATIVE)).status?.leader ?? '';
    const history = new PodHistory(memberPodSource(client, namespace, BOUND), MEMBERS);
    const baseline = new PodHistory(memberPodSource(client, namespace, NATIVE), MEMBERS);
    await Promise.all([history.start(), baseline.start()]);
    const [ours, native] = await Promise.all([probeEnsemble(client, namespace, BOUND), probeEnsemble(client, namespace, NATIVE)]);
    const started = new Date();

    await Promise.all([
      client.patch(namespace, BOUND, { spec: { config: { tickTime: 2500 } } }),
      client.patch(namespace, NATIVE, { spec: { config: { tickTime: 2500 } } }),
    ]);

    const completed = await scenario.waitCompleted('the bound roll to complete', started);
    const oursSeconds = (Date.now() - started.getTime()) / 1000;
    await waitFor('the native roll to replace every pod', async () => baseline.restarts.length, (count) => count >= MEMBERS, ROLL_TIMEOUT_MS);
    await scenario.waitHealthy(NATIVE);
    const nativeSeconds = (Date.now() - started.getTime()) / 1000;
    await scenario.waitHealthy(BOUND);
    await Promise.all([history.stop(), baseline.stop()]);
    const [oursReport, nativeReport] = await Promise.all([ours.stop(), native.stop()]);
    console.log(`${figures('template roll, rolling trait (OnDelete, leader last)', oursReport, oursSeconds)}\n${figures(`template roll, native RollingUpdate baseline (leader ${nativeLeader}, restarted ${baseline.order().join(', ')})`, nativeReport, nativeSeconds)}`);

    expect(history.counts()).toEqual(scenario.onePerPod());
    expect(history.order()).toEqual(scenario.expectedOrder(leader));
    expect(history.mostDown).toBe(1);
    expect(oursReport.leaders.elections).toBe(1);
    expect(oursReport.writes.lost).toEqual([]);
    expect(nativeReport.writes.lost).toEqual([]);
    expect(completed.status).toMatchObject({ updatedReplicas: MEMBERS, pendingReplicas: 0, leaderRestarted: true });
    expect(completed.status?.currentPod).toBeUndefined();
    const events = await eventsAbout(client, namespace, TRAIT, ZOOKEEPER_ROLLING.kind);
    expect(events.filter((event) => event.reason === 'RestartingPod').map((event) => event.note)).toEqual(
      expect.arrayContaining(scenario.expectedOrder(leader).map((pod) => expect.stringContaining(`Deleted pod ${pod} (${pod === leader ? 'the leader, last' : 'a follower'})`) as unknown)),
    );
    expect(events.some((event) => event.reason === 'RollingCompleted')).toBe(true);
  });

  it('restarts every pod for the restart trigger alone, leader last, across a controller killed during a step and between two steps', async () => {
    const leader = (await scenario.waitHealthy(BOUND)).status?.leader ?? '';
    const firstPod = scenario.expectedOrder(leader)[0] ?? '';
    const firstPid = await zookeeperPid(bed, namespace, firstPod);
    const history = new PodHistory(memberPodSource(client, namespace, BOUND), MEMBERS);
    await history.start();
    const probe = await probeEnsemble(client, namespace, BOUND);
    const started = new Date();

    await traits.patch(namespace, TRAIT, { spec: { restartTrigger: 'restart-1' } });

    // During a step: the first pod is down; the controller dies, and a new one must wait for it, not delete another.
    await waitFor('the first pod deleted', async () => history.order(), (order) => order.length >= 1, 120_000, 100);
    expect(history.order()).toEqual([firstPod]);
    await controllerProcess().kill();
    await controllerProcess().restart();
    // Its replacement's ZooKeeper is held stopped, so the pod stays down for as long as the new process takes to lead.
    const replacementPid = await waitFor(`${firstPod}'s new ZooKeeper started`, () => zookeeperPid(bed, namespace, firstPod), (pid) => Number.isInteger(pid) && pid > 0 && pid !== firstPid, 120_000, 100);
    process.kill(replacementPid, 'SIGSTOP');
    try {
      await waitControllerReady(controllerProcess());
      await waitFor('the restarted controller to reconcile the trait twice', reconciles, (count) => count >= 2, 60_000, 100);
      await history.caughtUp();
      expect(history.returns).toEqual([]);
      expect(history.restarts).toHaveLength(1);
    } finally {
      process.kill(replacementPid, 'SIGCONT');
    }

    // Between two steps: paused, the roll finishes the pod in progress and rests; the controller dies there.
    await traits.patch(namespace, TRAIT, { spec: { paused: true } });
    const paused = await waitFor('the roll to rest, paused', trait, (current) => current.status?.phase === 'Paused', 180_000, 500);
    const restartedBeforeKill = history.restarts.length;
    expect(paused.status?.pendingReplicas).toBe(MEMBERS - restartedBeforeKill);
    await controllerProcess().kill();
    await controllerProcess().restart();
    await waitControllerReady(controllerProcess());
    await waitFor('the restarted controller to reconcile the paused trait', reconciles, (count) => count >= 1, 60_000, 100);
    await history.caughtUp();
    expect((await trait()).status?.phase).toBe('Paused');
    expect(history.restarts).toHaveLength(restartedBeforeKill);
    await traits.patch(namespace, TRAIT, { spec: { paused: false } });

    const completed = await scenario.waitCompleted('the trigger roll to complete', started);
    const seconds = (Date.now() - started.getTime()) / 1000;
    await scenario.waitHealthy(BOUND);
    await history.stop();
    const report = await probe.stop();
    console.log(figures('restart trigger roll, controller killed twice', report, seconds));

    expect(history.counts()).toEqual(scenario.onePerPod());
    expect(history.order()).toEqual(scenario.expectedOrder(leader));
    expect(history.mostDown).toBe(1);
    // The second deletion came only once the pod in progress at the kill was back Ready.
    const firstBack = history.returns.find((back) => back.pod === firstPod);
    expect(firstBack).toBeDefined();
    expect(history.restarts[1]?.at).toBeGreaterThanOrEqual(firstBack?.at ?? Number.POSITIVE_INFINITY);
    expect(report.leaders.elections).toBe(1);
    expect(report.writes.lost).toEqual([]);
    expect(completed.status).toMatchObject({ observedRestartTrigger: 'restart-1', updatedReplicas: MEMBERS, leaderRestarted: true });
  });

  it('waits while a scale holds the disruption Lease, then rolls; a member failing mid-roll makes it Blocked, and it finishes once the member is back', async () => {
    const workload = await scenario.waitHealthy(BOUND);
    const leader = workload.status?.leader ?? '';
    const lock = new ObjectLock({
      client: new KubeClient(kubeConfig),
      namespace,
      owner: { apiVersion: ZOOKEEPER_WORKLOAD.apiVersion, kind: ZOOKEEPER_WORKLOAD.kind, name: BOUND, uid: workload.metadata.uid ?? '' },
      leaseName: disruptionLeaseName(BOUND),
      logger: pino({ level: 'warn' }),
    });
    const scaleHolder = disruptionLockHolder('scale', 'grow');
    expect(await lock.tryAcquire(scaleHolder, { leaseDurationSeconds: 60, operation: 'test: a scale step' })).toEqual({ held: true });
    const history = new PodHistory(memberPodSource(client, namespace, BOUND), MEMBERS);
    await history.start();
    const probe = await probeEnsemble(client, namespace, BOUND);
    const started = new Date();

    await traits.patch(namespace, TRAIT, { spec: { stepTimeoutSeconds: 8 } });
    await client.patch(namespace, BOUND, { spec: { config: { tickTime: 3000 } } });

    const waiting = await waitFor('the roll to wait for the Lease', trait, (current) => rollingCondition(current, 'Waiting')?.reason === 'DisruptionLockBusy', 120_000, 500);
    expect(rollingCondition(waiting, 'Waiting')?.message).toContain('held by scale/grow (test: a scale step) since');
    // Two more reconciles, each finding the Lease held: no deletion, still waiting for it.
    const reconcilesWaiting = await reconciles();
    await waitFor('two reconciles while the Lease is held', reconciles, (count) => count >= reconcilesWaiting + 2, 60_000, 100);
    await history.caughtUp();
    expect(history.restarts).toEqual([]);
    expect(rollingCondition(await trait(), 'Waiting')?.reason).toBe('DisruptionLockBusy');
    expect(await lock.release(scaleHolder)).toBe(true);

    await waitFor('the first pod deleted after the release', async () => history.restarts.length, (count) => count >= 1, 120_000, 250);
    const victim = PODS.find((pod) => pod !== leader && !history.order().includes(pod) && pod !== (history.order().at(-1) ?? '')) ?? '';
    const pid = await zookeeperPid(bed, namespace, victim);
    process.kill(pid, 'SIGSTOP');
    const blocked = await waitFor(`Blocked naming ${victim}`, trait, (current) => current.status?.phase === 'Blocked' && (rollingCondition(current, 'Waiting')?.message.includes(victim) ?? false), 120_000, 500);
    const restartsWhileBlocked = history.restarts.length;
    process.kill(pid, 'SIGKILL');

    const completed = await scenario.waitCompleted('the roll to complete after the member is back', started);
    const seconds = (Date.now() - started.getTime()) / 1000;
    await scenario.waitHealthy(BOUND);
    await history.stop();
    const report = await probe.stop();
    console.log(figures(`template roll after the Lease wait, ${victim} stopped then killed mid-roll`, report, seconds));

    expect(rollingCondition(blocked, 'Waiting')).toMatchObject({ status: 'True', reason: expect.stringMatching(/^(PodNotReady|MemberNotSynced)$/) as unknown });
    expect(restartsWhileBlocked).toBeLessThanOrEqual(2);
    expect(history.counts()).toEqual(scenario.onePerPod());
    expect(history.order().at(-1)).toBe(leader);
    expect(history.mostDown).toBeLessThanOrEqual(2);
    expect(report.leaders.elections).toBe(1);
    expect(report.writes.lost).toEqual([]);
    expect(completed.status).toMatchObject({ updatedReplicas: MEMBERS, leaderRestarted: true });
  });

  it('restarts two followers at a time with maxUnavailable 2, never more, the leader alone and last, quorum and writes kept, each step on NATS', async () => {
    const leader = (await scenario.waitHealthy(BOUND)).status?.leader ?? '';
    const history = new PodHistory(memberPodSource(client, namespace, BOUND), MEMBERS);
    await history.start();
    const probe = await probeEnsemble(client, namespace, BOUND);
    const recorder = await recordEvents(bed, namespace, BOUND);
    const started = new Date();

    await traits.patch(namespace, TRAIT, { spec: { maxUnavailable: 2, stepTimeoutSeconds: null, restartTrigger: 'restart-2' } });

    const completed = await scenario.waitCompleted('the two-at-a-time roll to complete', started);
    const seconds = (Date.now() - started.getTime()) / 1000;
    await scenario.waitHealthy(BOUND);
    await history.stop();
    const report = await probe.stop();
    const events = await recorder.stop();
    console.log(figures('restart trigger roll, maxUnavailable 2', report, seconds));

    const [first, second, third, fourth, last] = history.order();
    const followers = scenario.expectedOrder(leader).slice(0, MEMBERS - 1);
    expect(history.counts()).toEqual(scenario.onePerPod());
    expect(new Set([first, second])).toEqual(new Set(followers.slice(0, 2)));
    expect(new Set([third, fourth])).toEqual(new Set(followers.slice(2, 4)));
    expect(last).toBe(leader);
    expect(history.mostDown).toBe(2);
    expect(report.leaders.elections).toBe(1);
    expect(report.writes.lost).toEqual([]);
    expect(completed.status).toMatchObject({ observedRestartTrigger: 'restart-2', updatedReplicas: MEMBERS, leaderRestarted: true });

    const rolling = events.filter((event) => event.type.startsWith('Rolling'));
    const steps = (type: string): { pod: string; leader: boolean }[] =>
      rolling.flatMap((event) => (event.type === type && 'pod' in event.data ? [{ pod: event.data.pod, leader: event.data.leader }] : []));
    const expectedSteps = scenario.expectedOrder(leader).map((pod) => ({ pod, leader: pod === leader }));
    expect(steps('RollingStepStarted')).toEqual(expect.arrayContaining(expectedSteps));
    expect(steps('RollingStepStarted')).toHaveLength(MEMBERS);
    expect(steps('RollingStepStarted').at(-1)).toEqual({ pod: leader, leader: true });
    expect(steps('RollingStepCompleted')).toEqual(expect.arrayContaining(expectedSteps));
    expect(steps('RollingStepCompleted')).toHaveLength(MEMBERS);
    expect(rolling.filter((event) => event.type === 'RollingBlocked')).toEqual([]);
    expect(rolling.at(-1)?.type).toBe('RollingCompleted');
    expect(new Set(rolling.map((event) => event.source))).toEqual(new Set(['zk-oam-rolling']));
    expect(rolling.every((event) => event.subject.kind === ZOOKEEPER_WORKLOAD.kind && event.subject.name === BOUND && event.subject.namespace === namespace)).toBe(true);
  });

  it('unbinds when the trait is deleted: the annotation goes and the StatefulSet returns to RollingUpdate', async () => {
    await traits.delete(namespace, TRAIT);

    await waitFor('the trait to be gone', () => traits.get(namespace, TRAIT).then(() => 'present', () => 'gone'), (state) => state === 'gone', 60_000);
    await waitFor('RollingUpdate', () => updateStrategy(BOUND), (strategy) => strategy === 'RollingUpdate', 60_000);
    expect((await client.get(namespace, BOUND)).metadata.annotations?.[ROLLING_BINDING_ANNOTATION]).toBeUndefined();
  });
});
