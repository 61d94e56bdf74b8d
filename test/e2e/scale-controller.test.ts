// The scale trait controller as a process with only deploy/scale RBAC, against real ZooKeeper on the bed, with a
// client writing sequential znodes throughout each scenario. One ensemble goes 3 -> 5 -> 3 -> 5 -> 3: the controller is
// killed after raising the replicas, after a reconfig add and after a reconfig remove (before lowering the replicas);
// the leader is the highest member when scaling down; a rolling restart holds the disruption lock; a member is down.
import {
  disruptionLeaseName,
  disruptionLockHolder,
  memberSelectorOf,
  SCALE_BINDING_ANNOTATION,
  statefulSetNameOf,
  volumeName,
  ZOOKEEPER_WORKLOAD,
} from '@zk-oam/apis';
import { createLogger, KubeClient, ObjectLock, PooledKubeConfig } from '@zk-oam/runtime';
import { describe, expect, it } from 'vitest';
import { auditEntriesSince, auditLogSize, bedWorkloadSpec, kubectl, reconcilesRun } from '../src/controllers/index.js';
import { measured } from './scale-measure.js';
import {
  ensembleTruth,
  memberPid,
  scaleControllerMayWriteWorkloads,
  settledAt,
  traitCondition,
  useScaleController,
  waitFor,
  waitScaled as waitScaledIn,
} from './scale-support.js';
import { workerBed } from '../src/worker-bed.js';

const bed = workerBed();
const suite = useScaleController(bed, { namespacePrefix: 'scale' });
const { client, traits, namespace } = suite;
const kubeConfig = new PooledKubeConfig();
kubeConfig.loadFromFile(bed.kubeconfig);
const api = new KubeClient(kubeConfig);
const name = 'zk';
const trait = 'zk-size';
const selector = memberSelectorOf(name);

const listPods = async () => (await client.core.listNamespacedPod({ namespace, labelSelector: selector })).items;
const readTrait = () => traits.get(namespace, trait);
const watch = { listPods, trait: readTrait };
const workloadReplicas = async (): Promise<number> => (await client.get(namespace, name)).spec.replicas;
const committed = async (): Promise<number[] | undefined> => (await ensembleTruth(listPods)).committed;

const waitScaled = (size: number): Promise<void> => waitScaledIn(traits, { namespace, trait, listPods }, size);

/** Writes of the workload by the scale controller logged since `offset`, with the apiserver's answer. */
async function workloadWritesSince(offset: number): Promise<{ verb: string; code: number | undefined }[]> {
  const user = suite.scaleController().user;
  return (await auditEntriesSince(bed, offset))
    .filter((entry) => entry.user.username === user && entry.objectRef?.resource === ZOOKEEPER_WORKLOAD.plural && entry.objectRef.name === name)
    .map((entry) => ({ verb: entry.verb, code: entry.responseStatus?.code }));
}

async function pvcUids(): Promise<Record<string, string | undefined>> {
  const claims = (await client.core.listNamespacedPersistentVolumeClaim({ namespace })).items;
  return Object.fromEntries(claims.map((claim) => [claim.metadata?.name ?? '', claim.metadata?.uid]));
}

describe('the scale controller on one ensemble, 3 -> 5 -> 3 -> 5 -> 3', () => {
  it('binds to a 3-member workload and reports it Idle at 3', async () => {
    await client.create(namespace, name, bedWorkloadSpec());
    await traits.create(namespace, trait, { workloadRef: { name }, replicas: 3 });
    await waitScaled(3);
    const workload = await client.get(namespace, name);
    expect(workload.metadata.annotations?.[SCALE_BINDING_ANNOTATION]).toBe(trait);
    const bound = await readTrait();
    expect(bound.metadata.ownerReferences).toEqual([expect.objectContaining({ kind: ZOOKEEPER_WORKLOAD.kind, name, uid: workload.metadata.uid })]);
    expect(bound.metadata.ownerReferences?.[0]?.controller).not.toBe(true);
    expect(bound.metadata.finalizers).toContain('scale.zookeeper.zkoam.dev/unbind');
    const row = await kubectl(bed, ['get', 'zks', trait, '-n', namespace, '--no-headers']);
    expect(row.trim().split(/\s+/).slice(0, 5)).toEqual([trait, name, '3', '3', 'Idle']);
  });

  it('scales 3 -> 5, killed after raising the replicas and again after the reconfig add', async () => {
    const report = await measured('3 -> 5, killed after raise and after reconfig add', watch, async () => {
      await traits.scale(namespace, trait, 5);
      await waitFor('the workload raised to 4', workloadReplicas, (replicas) => replicas === 4, 120_000, 100);
      await suite.scaleController().kill();
      // Restarted without the right to change the workload: it reconfigures member 4 in, then cannot raise to 5.
      await scaleControllerMayWriteWorkloads(bed, false);
      await suite.scaleController().restart();
      await waitFor('member 4 in the committed config', committed, (ids) => ids?.includes(4) === true, 180_000, 250);
      expect(await workloadReplicas()).toBe(4);
      await suite.scaleController().kill();
      await scaleControllerMayWriteWorkloads(bed, true);
      await suite.scaleController().restart();
      await waitScaled(5);
    });
    expect(report.writes.lost).toEqual([]);
    expect(report.leaders.elections).toBe(0);
  });

  it('scales 5 -> 4 -> 3 while the highest member leads, killed after the reconfig remove, before lowering the replicas', async () => {
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const truth = await waitFor('5 settled members', () => ensembleTruth(listPods), (seen) => settledAt(seen, 5), 120_000, 1_000);
      const leader = truth.assessment?.leader;
      if (leader === 5 || leader === undefined) break;
      // ZooKeeper elects the highest id among equally recent members: killing the leader moves leadership up.
      process.kill(await memberPid(bed, namespace, `${name}-${leader - 1}`), 'SIGKILL');
      await waitFor('a new leader', () => ensembleTruth(listPods), (seen) => seen.assessment?.leader !== undefined && seen.assessment.leader !== leader, 60_000, 500);
    }
    expect((await waitFor('5 settled members', () => ensembleTruth(listPods), (seen) => settledAt(seen, 5), 120_000, 1_000)).assessment?.leader).toBe(5);

    await scaleControllerMayWriteWorkloads(bed, false);
    const auditOffset = await auditLogSize(bed);
    const removal = await measured('5 -> 4, leader on member 5, killed before lowering', watch, async () => {
      await traits.scale(namespace, trait, 4);
      await waitFor('member 5 out of the committed config', committed, (ids) => ids !== undefined && !ids.includes(5), 180_000, 250);
      // Invariant 2: the member left the config; its pod is still there, the lowering was tried and refused.
      await waitFor('the scale controller\'s write of the workload refused (403)', () => workloadWritesSince(auditOffset), (writes) => writes.some((write) => write.code === 403), 180_000, 250);
      expect(await workloadReplicas()).toBe(5);
      await suite.scaleController().kill();
      await scaleControllerMayWriteWorkloads(bed, true);
      await suite.scaleController().restart();
      await waitScaled(4);
    });
    expect(removal.writes.lost).toEqual([]);
    // Removing the leader hands leadership over once. (Which voter gets it is ZooKeeper's choice: when that is member 4,
    // the next step removes the leader again, so 5 -> 3 in one go may see two changes; hence this step alone.)
    expect(removal.leaders.leaderChanges).toBe(1);
    expect(removal.leaders.elections).toBe(1);

    const rest = await measured('4 -> 3', watch, async () => {
      await traits.scale(namespace, trait, 3);
      await waitScaled(3);
    });
    expect(rest.writes.lost).toEqual([]);
    expect(rest.leaders.leaderChanges).toBeLessThanOrEqual(1);
  });

  it('scales 3 -> 5 on the retained volumes once a rolling restart releases the disruption lock', async () => {
    const volumesBefore = await pvcUids();
    const retained = [volumeName(statefulSetNameOf(name), 3), volumeName(statefulSetNameOf(name), 4)];
    expect(Object.keys(volumesBefore)).toEqual(expect.arrayContaining(retained));
    const workload = await client.get(namespace, name);
    const lock = new ObjectLock({
      client: api,
      namespace,
      owner: { apiVersion: ZOOKEEPER_WORKLOAD.apiVersion, kind: ZOOKEEPER_WORKLOAD.kind, name, uid: workload.metadata.uid ?? '' },
      leaseName: disruptionLeaseName(name),
      logger: createLogger({ name: 'scale-test', level: 'silent' }),
    });
    const rollHolder = disruptionLockHolder('rolling', 'zk-restart');
    expect(await lock.tryAcquire(rollHolder, { leaseDurationSeconds: 60, operation: 'rolling restart (held by the test)' })).toEqual({ held: true });

    const report = await measured('3 -> 5, reused volumes, after the lock is released', watch, async () => {
      await traits.scale(namespace, trait, 5);
      const waiting = await waitFor('the trait waiting for the lock', readTrait, (current) => traitCondition(current, 'Progressing')?.reason === 'WaitingForDisruptionLock', 60_000, 500);
      expect(traitCondition(waiting, 'Progressing')?.message).toContain('held by rolling/zk-restart (rolling restart (held by the test)) since');
      // Two more reconciles, each finding the Lease held: the workload still at 3, the trait still waiting.
      const reconciles = await reconcilesRun(suite.scaleController());
      await waitFor('two reconciles while the Lease is held', () => reconcilesRun(suite.scaleController()), (count) => count >= reconciles + 2, 60_000, 100);
      expect(await workloadReplicas()).toBe(3);
      expect(traitCondition(await readTrait(), 'Progressing')?.reason).toBe('WaitingForDisruptionLock');
      expect(await lock.release(rollHolder)).toBe(true);
      await waitScaled(5);
    });
    expect(report.writes.lost).toEqual([]);
    const volumesAfter = await pvcUids();
    for (const volume of retained) expect(volumesAfter[volume]).toBe(volumesBefore[volume]);
  });

  it('blocks 5 -> 3 while a member is down, naming it, and proceeds once it is back without losing quorum', async () => {
    // A follower that stays (not the leader: its loss would be an election of its own, not the scale's).
    const leader = (await waitFor('5 settled members', () => ensembleTruth(listPods), (seen) => settledAt(seen, 5), 120_000, 1_000)).assessment?.leader;
    const victim = [2, 3, 1].find((myid) => myid !== leader) ?? 2;
    const pod = `${name}-${victim - 1}`;
    const pid = await memberPid(bed, namespace, pod);
    process.kill(pid, 'SIGSTOP');
    try {
      const report = await measured(`5 -> 3, member ${victim} down first`, watch, async () => {
        await traits.scale(namespace, trait, 3);
        const blocked = await waitFor('the trait Blocked', readTrait, (current) => current.status?.phase === 'Blocked', 60_000, 500);
        expect(traitCondition(blocked, 'Blocked')).toMatchObject({ status: 'True', reason: 'MemberUnhealthy' });
        expect(traitCondition(blocked, 'Blocked')?.message).toContain(`pod ${pod}`);
        expect(await workloadReplicas()).toBe(5);
        process.kill(pid, 'SIGCONT');
        await waitScaled(3);
      });
      expect(report.writes.lost).toEqual([]);
      // Quorum never lost: losing it ends the leader's epoch, and a new one would count as an election.
      expect(report.leaders.elections).toBe(0);
    } finally {
      process.kill(pid, 'SIGCONT');
    }
  });
});
