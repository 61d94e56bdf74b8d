// The rolling trait's leader handover on the bed, with real ZooKeeper: the leader, due last, leaves the voters by
// reconfig, restarts as a non-voter, and comes back in once synced. One 5-member workload with spec.leaderHandover
// Reconfigure, and a scale trait at 5, carries a normal roll, a follower failing mid-handover, and a roll across
// controller kills at each point of the handover. A client writes and a tracker watches the leader throughout.
import { myidOfOrdinal, podOfMember, ROLLING_BINDING_ANNOTATION, ZOOKEEPER_PORTS, ZOOKEEPER_ROLLING, type ZookeeperRolling } from '@zk-oam/apis';
import { observeEnsemble } from '@zk-oam/zookeeper';
import { describe, expect, it } from 'vitest';
import { bedWorkloadSpec, eventsAbout, memberPodSource, PodHistory, waitControllerReady, waitFor } from '../src/controllers/index.js';
import { figures, memberPods, probeEnsemble, RollingClient, rollingCondition, zookeeperPid } from './rolling-fixtures.js';
import { ROLL_TIMEOUT_MS, RollScenario, useRollingController } from './rolling-scenario.js';
import { traitCondition, useScaleController } from './scale-support.js';
import { workerBed } from '../src/worker-bed.js';
import { pause } from '@zk-oam/runtime';

const bed = workerBed();
// The scale controller runs too, with a scale trait at the same size: a handover must not look like its failure.
const suite = useScaleController(bed, { namespacePrefix: 'handover' });
const { client, namespace } = suite;
const SCALE_TRAIT = 'size';
const traits = new RollingClient(bed);

const WORKLOAD = 'zkh';
const TRAIT = 'handover';
const MEMBERS = 5;
const ALL_VOTERS = Array.from({ length: MEMBERS }, (_unused, ordinal) => myidOfOrdinal(ordinal));
const scenario = new RollScenario({ client, traits, namespace, workload: WORKLOAD, trait: TRAIT, members: MEMBERS });
const PODS = scenario.pods;
// The controller's default lock (60 s): killed while the former leader's pod restarts, it still holds the workload
// when the pod is Ready, however slowly a loaded machine starts it; with a shorter lock the scale trait, which wants 5
// voters, takes the expired lock and restores the member itself before the last kill point is seen.
const controllerProcess = useRollingController(bed, { lockDurationSeconds: 60 });
const trait = (): Promise<ZookeeperRolling> => scenario.trait();

function memberIdOf(pod: string): number {
  return myidOfOrdinal(Number(pod.slice(WORKLOAD.length + 1)));
}

/** What ZooKeeper says now: the committed voters and the leader, asked by pod IP as the controllers do. */
async function ensembleNow(): Promise<{ voters: number[]; leader: number | undefined }> {
  const pods = await memberPods(client, namespace, WORKLOAD)();
  const members = pods.flatMap((pod) => {
    const name = pod.metadata?.name ?? '';
    return pod.metadata?.deletionTimestamp === undefined ? [{ pod: name, myid: memberIdOf(name), ip: pod.status?.podIP }] : [];
  });
  const observation = await observeEnsemble(members, { clientPort: ZOOKEEPER_PORTS.client, timeoutMs: 1_000 });
  const leader = observation.members.find((member) => member.observation.srvr?.mode === 'leader')?.myid;
  const voters = observation.committed.ok ? observation.committed.config.servers.filter((server) => server.role === 'participant').map((server) => server.id) : [];
  return { voters: voters.sort((a, b) => a - b), leader };
}

/** The roll's observers, started before a change: the leader then (as ZooKeeper says), the pods' history, a writer and a leader tracker. */
async function watchRoll(): Promise<{ leader: string; history: PodHistory; probe: Awaited<ReturnType<typeof probeEnsemble>>; started: Date }> {
  await scenario.waitHealthy();
  const { leader: leaderId } = await waitFor('ZooKeeper to name one leader', ensembleNow, (now) => now.leader !== undefined, 60_000, 250);
  const leader = podOfMember(WORKLOAD, leaderId ?? 0);
  const history = new PodHistory(memberPodSource(client, namespace, WORKLOAD), MEMBERS);
  await history.start();
  const probe = await probeEnsemble(client, namespace, WORKLOAD);
  return { leader, history, probe, started: new Date() };
}

/** The trait's Events last seen since `since`, in the order they were last seen. */
async function reasonsSince(since: Date): Promise<{ reason: string; note: string }[]> {
  const events = await eventsAbout(client, namespace, TRAIT, ZOOKEEPER_ROLLING.kind);
  return events
    .map((event) => ({ reason: event.reason ?? '', note: event.note ?? '', at: new Date(event.series?.lastObservedTime ?? event.eventTime ?? 0).getTime() }))
    .filter((event) => event.at >= since.getTime() - 1_000)
    .sort((a, b) => a.at - b.at);
}

describe('a leader handover on the bed', () => {
  it('hands leadership over on a template roll: every pod once, the leader last, one leader change, every voter back, no write lost', async () => {
    await client.create(namespace, WORKLOAD, bedWorkloadSpec({ replicas: MEMBERS }));
    await traits.create(namespace, TRAIT, WORKLOAD, { leaderHandover: 'Reconfigure' });
    await suite.traits.create(namespace, SCALE_TRAIT, { workloadRef: { name: WORKLOAD }, replicas: MEMBERS });
    await waitFor('the trait to be bound and idle', trait, (current) => rollingCondition(current, 'Bound')?.status === 'True' && current.status?.phase === 'Idle', 60_000, 500);
    await waitFor('the scale trait Idle at 5', () => suite.traits.get(namespace, SCALE_TRAIT), (current) => current.status?.phase === 'Idle', 120_000, 500);
    const { leader, history, probe, started } = await watchRoll();
    // Every read of the scale trait during the roll, each phase and reason once; a failed read is kept, not dropped.
    const scaleSeen = new Set<string>();
    const scaleReadErrors: string[] = [];
    const watchingScale = setInterval(() => {
      suite.traits.get(namespace, SCALE_TRAIT).then(
        (current) => scaleSeen.add(`${current.status?.phase ?? '-'} ${traitCondition(current, 'Progressing')?.reason ?? '-'}`),
        (error: unknown) => scaleReadErrors.push(error instanceof Error ? error.message : String(error)),
      );
    }, 250);

    await client.patch(namespace, WORKLOAD, { spec: { config: { tickTime: 2500 } } });

    const completed = await scenario.waitCompleted('the handover roll to complete', started).finally(() => clearInterval(watchingScale));
    const seconds = (Date.now() - started.getTime()) / 1000;
    await scenario.waitHealthy();
    await history.stop();
    const report = await probe.stop();
    console.log(figures('template roll, leader handed over by reconfig', report, seconds));

    expect(history.counts()).toEqual(scenario.onePerPod());
    expect(history.order()).toEqual(scenario.expectedOrder(leader));
    expect(history.mostDown).toBe(1);
    expect(report.leaders.leaderChanges).toBe(1);
    expect(report.writes.lost).toEqual([]);
    expect((await ensembleNow()).voters).toEqual(ALL_VOTERS);
    expect(completed.status).toMatchObject({ updatedReplicas: MEMBERS, pendingReplicas: 0, leaderRestarted: true });
    expect(completed.status?.handover).toBeUndefined();
    const reasons = (await reasonsSince(started)).map((event) => event.reason);
    expect(reasons.filter((reason) => reason === 'LeaderHandedOver')).toHaveLength(1);
    expect(reasons.filter((reason) => reason === 'VoterRestored')).toHaveLength(1);
    expect(reasons.indexOf('LeaderHandedOver')).toBeLessThan(reasons.indexOf('VoterRestored'));
    console.log(`scale trait during the handover roll: ${[...scaleSeen].join('; ')}`);
    expect(scaleReadErrors).toEqual([]);
    expect(scaleSeen.size).toBeGreaterThan(0);
    expect([...scaleSeen].filter((seen) => seen.startsWith('Blocked'))).toEqual([]);
    // Its status.replicas is what it last observed: 4 voters while the leader was out, 5 at its next look.
    const settledScale = await waitFor('the scale trait to see every voter back', () => suite.traits.get(namespace, SCALE_TRAIT), (current) => current.status?.replicas === MEMBERS, 30_000, 250);
    expect(settledScale.status).toMatchObject({ phase: 'Idle', replicas: MEMBERS });
  });

  it('a follower failing while the former leader is out: Blocked at once with HandoverInterrupted, the former leader back in, then done', async () => {
    const { history, probe, started } = await watchRoll();

    await traits.patch(namespace, TRAIT, { spec: { restartTrigger: 'interrupted-1' } });

    // The member the trait hands over, as it records it: the leader when the roll reached it.
    const recorded = await waitFor('a handover recorded', trait, (current) => current.status?.handover !== undefined, ROLL_TIMEOUT_MS, 100);
    const leader = recorded.status?.handover?.pod ?? '';
    const leaderId = memberIdOf(leader);
    const handedOver = await waitFor('the former leader out of the voters, another leading', ensembleNow, (now) => !now.voters.includes(leaderId) && now.leader !== undefined && now.leader !== leaderId, ROLL_TIMEOUT_MS, 100);
    const victim = PODS.find((pod) => pod !== leader && memberIdOf(pod) !== handedOver.leader) ?? '';
    const pid = await zookeeperPid(bed, namespace, victim);
    // Stopped the moment the former leader's pod goes, so that the follower fails while that pod restarts: found out
    // after the deletion, the restart (a few seconds) could already be over.
    await waitFor('the former leader deleted after leaving the voters', async () => history.order(), (order) => order.includes(leader), ROLL_TIMEOUT_MS, 50);
    process.kill(pid, 'SIGSTOP');
    expect((await ensembleNow()).voters).not.toContain(leaderId);
    const blocked = await waitFor('Blocked by the interrupted handover', trait, (current) => current.status?.phase === 'Blocked', 120_000, 250);
    // Restored while the follower is still stopped: 4 voters, 3 of them serving, are a quorum.
    await waitFor('the former leader back in the voters', ensembleNow, (now) => now.voters.includes(leaderId), 180_000, 500);
    process.kill(pid, 'SIGKILL');

    const completed = await scenario.waitCompleted('the roll to complete once the follower is back', started);
    const seconds = (Date.now() - started.getTime()) / 1000;
    await scenario.waitHealthy();
    await history.stop();
    const report = await probe.stop();
    console.log(figures(`restart trigger roll, ${victim} stopped while ${leader} was out of the voters`, report, seconds));

    expect(rollingCondition(blocked, 'Waiting')).toMatchObject({ reason: 'HandoverInterrupted', message: expect.stringContaining(`the leader handover of ${leader} is interrupted: ${victim} down`) as unknown });
    expect(history.counts()).toEqual(scenario.onePerPod());
    expect(history.order().at(-1)).toBe(leader);
    expect(report.writes.lost).toEqual([]);
    expect((await ensembleNow()).voters).toEqual(ALL_VOTERS);
    expect(completed.status?.handover).toBeUndefined();
    expect((await reasonsSince(started)).map((event) => event.reason)).toEqual(expect.arrayContaining(['LeaderHandedOver', 'HandoverInterrupted', 'VoterRestored']));
  });

  it('finishes the handover across controller kills at each of its points, each pod restarted once and every voter back', async () => {
    const { leader, history, probe, started } = await watchRoll();
    const leaderId = memberIdOf(leader);
    const oldLeaderUid = (await memberPods(client, namespace, WORKLOAD)()).find((pod) => pod.metadata?.name === leader)?.metadata?.uid;

    await traits.patch(namespace, TRAIT, { spec: { restartTrigger: 'kills-1' } });

    const leaderPod = async () => (await memberPods(client, namespace, WORKLOAD)()).find((pod) => pod.metadata?.name === leader);
    const points: { name: string; reachedWhileStopped?: boolean; reached: () => Promise<boolean> }[] = [
      { name: 'handover recorded in the status', reached: async () => (await trait()).status?.handover !== undefined },
      { name: 'leader out of the voters', reached: async () => !(await ensembleNow()).voters.includes(leaderId) },
      { name: 'old leader pod deleted', reached: async () => (await leaderPod())?.metadata?.uid !== oldLeaderUid || (await leaderPod())?.metadata?.deletionTimestamp !== undefined },
      {
        name: 'new pod ready, not yet a voter',
        // A running controller restores the member as soon as it sees the new pod Ready and synced, which can be quicker
        // than a poll: the controller stays down from the previous point until this one holds, and comes back in it.
        reachedWhileStopped: true,
        reached: async () => {
          const pod = await leaderPod();
          const ready = pod?.metadata?.uid !== oldLeaderUid && pod?.status?.conditions?.some((condition) => condition.type === 'Ready' && condition.status === 'True') === true;
          return ready && !(await ensembleNow()).voters.includes(leaderId);
        },
      },
    ];
    const killedAt: string[] = [];
    let stopped = false;
    for (const [index, point] of points.entries()) {
      const reached = await waitFor(`the handover point: ${point.name}`, point.reached, (yes) => yes, ROLL_TIMEOUT_MS, 100).catch(() => false);
      if (reached) {
        if (!stopped) await controllerProcess().kill();
        stopped = true;
        const state = await ensembleNow();
        killedAt.push(`${point.name} (voters ${state.voters.join(',')}, handover ${(await trait()).status?.handover === undefined ? 'not recorded' : 'recorded'})`);
        await pause(2_000);
      }
      if (stopped && points[index + 1]?.reachedWhileStopped !== true) {
        await controllerProcess().restart();
        await waitControllerReady(controllerProcess());
        stopped = false;
      }
    }

    const completed = await scenario.waitCompleted('the roll to complete across the kills', started);
    const seconds = (Date.now() - started.getTime()) / 1000;
    await scenario.waitHealthy();
    await history.stop();
    const report = await probe.stop();
    console.log(`controller killed at: ${killedAt.join('; ')}`);
    console.log(figures('restart trigger roll, handover with the controller killed at each point', report, seconds));

    expect(killedAt.map((entry) => entry.split(' (')[0])).toEqual(points.map((point) => point.name));
    expect(history.counts()).toEqual(scenario.onePerPod());
    expect(history.order()).toEqual(scenario.expectedOrder(leader));
    expect(history.mostDown).toBe(1);
    expect(report.writes.lost).toEqual([]);
    expect((await ensembleNow()).voters).toEqual(ALL_VOTERS);
    expect(completed.status).toMatchObject({ observedRestartTrigger: 'kills-1', updatedReplicas: MEMBERS, leaderRestarted: true });
    expect(completed.status?.handover).toBeUndefined();
  });

  it('finishes a handover under way before a deleted trait lets go: the former leader is back in the voters when the trait is gone', async () => {
    const { leader, history, probe, started } = await watchRoll();
    const leaderId = memberIdOf(leader);

    await traits.patch(namespace, TRAIT, { spec: { restartTrigger: 'deleted-1' } });
    await waitFor('the leader out of the voters', ensembleNow, (now) => now.voters.length > 0 && !now.voters.includes(leaderId), ROLL_TIMEOUT_MS, 100);
    await traits.delete(namespace, TRAIT);
    await waitFor('the trait to be gone', () => traits.get(namespace, TRAIT).then(() => 'present', () => 'gone'), (state) => state === 'gone', 180_000, 250);
    const votersWhenGone = (await ensembleNow()).voters;

    await scenario.waitHealthy();
    await history.stop();
    const report = await probe.stop();
    console.log(figures('restart trigger roll, trait deleted while the leader was out of the voters', report, (Date.now() - started.getTime()) / 1000));

    expect(votersWhenGone).toEqual(ALL_VOTERS);
    // Restarted, then a voter again: followers still syncing with the successor right after the handover are waited
    // for (handover.ts), not taken for a failure that would put it back on its old process, never restarted once the
    // trait is gone.
    expect(history.counts()[leader] ?? 0).toBe(1);
    expect(report.writes.lost).toEqual([]);
    expect((await client.get(namespace, WORKLOAD)).metadata.annotations?.[ROLLING_BINDING_ANNOTATION]).toBeUndefined();
  });
});
