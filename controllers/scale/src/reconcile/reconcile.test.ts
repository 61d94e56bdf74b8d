// The reconcile pipeline with the cluster and ZooKeeper faked from the planner's test world: it takes one step per
// reconcile under the disruption lock, waits (acting on nothing) while another operation holds the lock, releases it
// when done, and reports binding problems as Blocked. What it cannot act on (a spec that does not validate, a missing
// workload, a lock lost mid-step) is a condition and one Warning, with nothing done and nothing recorded lost.
import { disruptionLockHolder, memberSelectorLabels, podName, podOfMember, SCALE_BINDING_ANNOTATION, scaleStatusSchema, workloadLabels, ZOOKEEPER_SCALE, ZOOKEEPER_WORKLOAD, type ZookeeperScale, type ZookeeperScaleStatus } from '@zk-oam/apis';
import { createLogger, RequeuePacer, type KubeObject, type Lister, type LockResult, type ObjectKey, type TraitState } from '@zk-oam/runtime';
import type { EnsembleObservation } from '@zk-oam/zookeeper';
import { decidingBinding } from '@zk-oam/runtime/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { STATEFUL_SET, WORKLOAD, World } from '../plan/test-world.js';
import type { ScaleReconcilerDependencies } from './dependencies.js';
import { reconcileScale } from './reconcile.js';
import { IDENTITY, UNBIND_FINALIZER, workloadResource } from './resources.js';

const namespace = 'ns';
const log = createLogger({ name: 'test', level: 'silent' });
const context = { log, reconcileId: 'test', signal: new AbortController().signal, othersPending: () => false };
const key = { namespace, name: 'zk-size' };

function lister(objects: KubeObject[]): Lister<KubeObject> {
  return {
    get: (wanted: ObjectKey) => objects.find((object) => object.metadata.name === wanted.name),
    list: () => objects,
  };
}

interface HarnessOptions {
  /** Answers every tryAcquire and inspect. */
  lock?: LockResult;
  workloadMissing?: boolean;
  tlsOnly?: boolean;
  /** The trait's spec does not validate. */
  invalid?: boolean;
  /** The trait's stored status. */
  status?: ZookeeperScaleStatus;
}

const appliedStatusSchema = z.looseObject({ status: scaleStatusSchema });

/** The cluster as the world shows it, the trait asking for `target`. */
function harness(world: World, options: HarnessOptions = {}) {
  const calls: string[] = [];
  const statuses: ZookeeperScale['status'][] = [];
  const trait = {
    apiVersion: ZOOKEEPER_SCALE.apiVersion,
    kind: 'ZookeeperScale',
    metadata: { name: key.name, namespace, uid: 'trait-uid', generation: 2, finalizers: [UNBIND_FINALIZER] },
    spec: { workloadRef: { name: WORKLOAD }, replicas: options.invalid === true ? 'five' : world.target },
    ...(options.status === undefined ? {} : { status: options.status }),
  };
  const workload = {
    apiVersion: ZOOKEEPER_WORKLOAD.apiVersion,
    kind: 'ZookeeperWorkload',
    metadata: { name: WORKLOAD, namespace, uid: 'workload-uid' },
    spec: { replicas: world.workloadReplicas, storage: { size: '1Gi' }, ...(options.tlsOnly === true ? { tls: { quorum: true, client: 'Only' } } : {}) },
  };
  const input = world.input();
  const statefulSet = { metadata: { name: STATEFUL_SET, namespace }, spec: { replicas: world.statefulSetReplicas, selector: { matchLabels: memberSelectorLabels(WORKLOAD) } } };
  const pods = input.pods.map((pod) => ({
    metadata: { name: pod.name, namespace, labels: workloadLabels(WORKLOAD) },
    status: { podIP: pod.podIP, conditions: [{ type: 'Ready', status: pod.ready ? 'True' : 'False' }] },
  }));
  const ensemble: EnsembleObservation = {
    members: input.observations.map((observation) => ({ pod: podOfMember(STATEFUL_SET, observation.id), myid: observation.id, ip: observation.address, observation })),
    committed: input.committed.ok ? { ok: true, config: input.committed.config, readFrom: podName(STATEFUL_SET, 0) } : { ok: false, error: new Error('unreadable') },
  };
  const reported: TraitState[] = [];
  const deps: ScaleReconcilerDependencies = {
    client: {
      request: (verb, path, request) => {
        if (path.endsWith('/status')) statuses.push(appliedStatusSchema.parse(request?.body).status);
        else calls.push(`${verb} ${path}`);
        return Promise.resolve(verb === 'GET' ? { data: { password: 'cw==' } } : {});
      },
    },
    caches: {
      traits: lister([trait]),
      workloads: lister(options.workloadMissing === true ? [] : [workload]),
      statefulSets: lister([statefulSet]),
      pods: lister(pods),
      volumes: lister([]),
    },
    recorder: { record: (_object, details) => Promise.resolve(void calls.push(`event ${details.reason}`)) },
    bus: { publish: (event) => Promise.resolve(void calls.push(`nats ${event.type}`)) },
    binding: decidingBinding({ workloadResource, bindingAnnotation: SCALE_BINDING_ANNOTATION }),
    lockOf: () => ({
      tryAcquire: (holder) => Promise.resolve(void calls.push(`lock ${holder}`)).then(() => options.lock ?? { held: true }),
      release: (holder) => Promise.resolve(void calls.push(`release ${holder}`)).then(() => true),
      inspect: () => {
        calls.push('inspect');
        const lock = options.lock;
        return Promise.resolve(lock === undefined || lock.held ? { kind: 'free' as const } : { kind: 'held' as const, expired: false, ...lock });
      },
    }),
    observe: () => Promise.resolve(ensemble),
    connectAdmin: () => Promise.reject(new Error('no ZooKeeper in this test')),
    now: () => new Date('2026-01-01T00:00:00Z'),
    source: IDENTITY.name,
    timing: { stepMs: 2_000, idleMs: 30_000, lockDurationSeconds: 60 },
    // No jitter and room for every look: an idle trait is looked at again after exactly idleMs.
    pacer: new RequeuePacer({ perSecond: 1_000, jitter: 0 }),
    traitMetrics: { report: (_key, state) => void reported.push(state), forget: () => undefined },
  };
  return { deps, calls, statuses, reported };
}

describe('reconcileScale', () => {
  it('raises the workload by one under the disruption lock, then reports ScalingUp with the step and an Event', async () => {
    const { deps, calls, statuses, reported } = harness(new World({ members: 3, target: 5 }));
    expect(await reconcileScale(deps, key, context)).toEqual({ kind: 'requeueAfter', ms: 2_000 });
    expect(calls.slice(0, 3)).toEqual([
      'lock scale/zk-size',
      'PATCH /apis/workload.zookeeper.zkoam.dev/v1alpha1/namespaces/ns/zookeeperworkloads/zk',
      'event RaiseReplicas',
    ]);
    expect(statuses.at(-1)).toMatchObject({ phase: 'ScalingUp', replicas: 3, targetReplicas: 5, operation: { from: 3 }, step: { action: 'Add', pod: 'zk-3' } });
    expect(calls.slice(3)).toEqual(['event ScaleStepStarted', 'nats ScaleStepStarted']);
    expect(reported.at(-1)).toEqual({ blocked: false, operationStartedAt: new Date('2026-01-01T00:00:00Z') });
  });

  it('acts on nothing while another operation holds the lock, and says who holds it', async () => {
    const busy: LockResult = { held: false, holder: disruptionLockHolder('rolling', 'zk-roll'), since: new Date('2025-12-31T23:59:00Z'), expiresAt: new Date('2026-01-01T00:00:30Z') };
    const { deps, calls, statuses } = harness(new World({ members: 3, target: 5 }), { lock: busy });
    expect(await reconcileScale(deps, key, context)).toEqual({ kind: 'requeueAfter', ms: 2_000 });
    expect(calls).toEqual(['lock scale/zk-size']);
    expect(statuses.at(-1)?.conditions?.find((condition) => condition.type === 'Progressing')).toMatchObject({
      status: 'True',
      reason: 'WaitingForDisruptionLock',
    });
    expect(statuses.at(-1)?.step).toBeUndefined();
  });

  it('releases the lock and reports Idle when the committed config has the target size', async () => {
    const { deps, calls, statuses, reported } = harness(new World({ members: 3, target: 3 }));
    expect(await reconcileScale(deps, key, context)).toEqual({ kind: 'requeueAfter', ms: 30_000 });
    expect(calls).toEqual(['release scale/zk-size']);
    expect(statuses.at(-1)).toMatchObject({ phase: 'Idle', replicas: 3, targetReplicas: 3 });
    expect(reported.at(-1)).toEqual({ blocked: false, operationStartedAt: undefined });
  });

  it('does not take the lock for a block before any operation started (a member down)', async () => {
    const world = new World({ members: 5, target: 3 });
    world.setDown(2, true);
    const { deps, calls, statuses, reported } = harness(world);
    await reconcileScale(deps, key, context);
    expect(calls).toEqual(['inspect', 'event MemberUnhealthy', 'nats ScaleBlocked']);
    expect(statuses.at(-1)).toMatchObject({ phase: 'Blocked' });
    expect(reported.at(-1)).toEqual({ blocked: true, operationStartedAt: undefined });
  });

  it('does not call that block its own while another operation holds the lock: it waits for the holder instead', async () => {
    const world = new World({ members: 5, target: 3 });
    world.setDown(2, true);
    const busy: LockResult = { held: false, holder: disruptionLockHolder('rolling', 'zk-roll'), since: new Date('2025-12-31T23:59:00Z'), expiresAt: new Date('2026-01-01T00:00:30Z') };
    const { deps, calls, statuses, reported } = harness(world, { lock: busy });
    await reconcileScale(deps, key, context);
    expect(calls).toEqual(['inspect']);
    expect(statuses.at(-1)?.phase).not.toBe('Blocked');
    expect(statuses.at(-1)?.conditions?.find((condition) => condition.type === 'Progressing')).toMatchObject({
      reason: 'WaitingForDisruptionLock',
      message: expect.stringContaining('held by rolling/zk-roll') as unknown,
    });
    expect(reported.at(-1)).toEqual({ blocked: false, operationStartedAt: undefined });
  });

  it('reports a missing workload as Blocked with the binding\'s reason', async () => {
    const { deps, calls, statuses } = harness(new World({ members: 3, target: 5 }), { workloadMissing: true });
    expect(await reconcileScale(deps, key, context)).toEqual({ kind: 'requeueAfter', ms: 30_000 });
    expect(statuses.at(-1)?.conditions?.find((condition) => condition.type === 'Blocked')).toMatchObject({ status: 'True', reason: 'WorkloadNotFound' });
    expect(calls).toEqual(['event WorkloadNotFound']);
  });

  it('does not scale a TLS-only workload (not supported yet): Blocked, naming why, without touching the lock', async () => {
    const { deps, calls, statuses } = harness(new World({ members: 3, target: 5 }), { tlsOnly: true });
    expect(await reconcileScale(deps, key, context)).toEqual({ kind: 'requeueAfter', ms: 30_000 });
    expect(statuses.at(-1)?.phase).toBe('Blocked');
    expect(statuses.at(-1)?.conditions?.find((condition) => condition.type === 'Blocked')).toMatchObject({
      status: 'True',
      reason: 'TlsOnlyUnsupported',
      message: expect.stringContaining('serves clients over TLS only (spec.tls.client Only)') as unknown,
    });
    expect(calls).toEqual(['event TlsOnlyUnsupported']);
  });

  describe('what it cannot act on: a condition and one Warning, nothing done, nothing recorded lost', () => {
    const underWay: ZookeeperScaleStatus = {
      phase: 'ScalingUp',
      replicas: 3,
      targetReplicas: 5,
      operation: { from: 3, startedAt: '2025-12-31T23:50:00Z' },
      step: { action: 'Add', pod: 'zk-3', myid: 4, stage: 'WaitingForSync', startedAt: '2025-12-31T23:55:00Z' },
    };
    const ready = (status: ZookeeperScale['status']) => status?.conditions?.find((condition) => condition.type === 'Ready');

    it('reports a spec that does not validate as Ready=False/InvalidSpec, keeps the rest of the status, and waits for a spec change', async () => {
      const { deps, calls, statuses, reported } = harness(new World({ members: 3, target: 5 }), { invalid: true, status: underWay });
      expect(await reconcileScale(deps, key, context)).toEqual({ kind: 'done' });
      expect(statuses.at(-1)).toMatchObject(underWay);
      expect(ready(statuses.at(-1))).toMatchObject({ status: 'False', reason: 'InvalidSpec', observedGeneration: 2, message: expect.stringContaining('spec.replicas') as unknown });
      expect(calls).toEqual(['event InvalidSpec']);
      expect(reported.at(-1)).toEqual({ blocked: true, operationStartedAt: new Date('2025-12-31T23:50:00Z') });

      const again = harness(new World({ members: 3, target: 5 }), { invalid: true, status: statuses.at(-1) });
      expect(await reconcileScale(again.deps, key, context)).toEqual({ kind: 'done' });
      expect(again.statuses).toEqual([]);
      expect(again.calls).toEqual([]);
    });

    it('reports a missing workload as Blocked, keeping the operation and step it recorded, without touching a lock', async () => {
      const { deps, calls, statuses } = harness(new World({ members: 3, target: 5 }), { workloadMissing: true, status: underWay });
      expect(await reconcileScale(deps, key, context)).toEqual({ kind: 'requeueAfter', ms: 30_000 });
      expect(statuses.at(-1)).toMatchObject({ ...underWay, phase: 'Blocked' });
      expect(ready(statuses.at(-1))).toMatchObject({ status: 'False', reason: 'WorkloadNotFound' });
      expect(calls).toEqual(['event WorkloadNotFound']);
    });

    it('reports a lock taken by another operation while its step was under way as lost: Ready=False/DisruptionLockLost, one Warning, nothing done', async () => {
      const world = new World({ members: 3, target: 5 });
      world.apply({ kind: 'RaiseReplicas', to: 4, member: 4 });
      const taken: LockResult = { held: false, holder: disruptionLockHolder('rolling', 'zk-roll'), since: new Date('2025-12-31T23:59:00Z'), expiresAt: new Date('2026-01-01T00:00:30Z') };
      const { deps, calls, statuses, reported } = harness(world, { lock: taken, status: underWay });
      expect(await reconcileScale(deps, key, context)).toEqual({ kind: 'requeueAfter', ms: 2_000 });
      expect(calls).toEqual(['lock scale/zk-size', 'event DisruptionLockLost']);
      expect(statuses.at(-1)).toMatchObject({ phase: 'ScalingUp', operation: underWay.operation, step: underWay.step });
      expect(ready(statuses.at(-1))).toMatchObject({ status: 'False', reason: 'DisruptionLockLost', message: expect.stringContaining('rolling/zk-roll has held it since 2025-12-31T23:59:00Z') as unknown });
      expect(statuses.at(-1)?.conditions?.find((condition) => condition.type === 'Progressing')).toMatchObject({ status: 'True', reason: 'DisruptionLockLost' });
      expect(reported.at(-1)).toEqual({ blocked: false, operationStartedAt: new Date('2025-12-31T23:50:00Z') });

      const again = harness(world, { lock: taken, status: statuses.at(-1) });
      await reconcileScale(again.deps, key, context);
      expect(again.calls).toEqual(['lock scale/zk-size']);
    });

    it('waits its turn without a Warning when another operation holds the lock before its first step', async () => {
      const busy: LockResult = { held: false, holder: disruptionLockHolder('rolling', 'zk-roll'), since: new Date('2025-12-31T23:59:00Z'), expiresAt: new Date('2026-01-01T00:00:30Z') };
      const { deps, calls, statuses } = harness(new World({ members: 3, target: 5 }), { lock: busy });
      await reconcileScale(deps, key, context);
      expect(calls).toEqual(['lock scale/zk-size']);
      expect(ready(statuses.at(-1))).toMatchObject({ reason: 'WaitingForDisruptionLock' });
    });
  });
});

describe('reconcileScale: a failed step', () => {
  const forbidden = new Error('leases.coordination.k8s.io is forbidden');

  it.each([
    ['Lock', 'LockFailed', (deps: ScaleReconcilerDependencies): ScaleReconcilerDependencies => ({ ...deps, lockOf: () => ({ tryAcquire: () => Promise.reject(forbidden), release: () => Promise.reject(forbidden), inspect: () => Promise.reject(forbidden) }) })],
    ['Observe', 'ObservationFailed', (deps: ScaleReconcilerDependencies): ScaleReconcilerDependencies => ({ ...deps, observe: () => Promise.reject(forbidden) })],
  ] as const)('%s fails with %s, the reason the rolling trait gives the same failure', async (step, reason, breaking) => {
    const { deps } = harness(new World({ members: 3, target: 5 }));
    await expect(reconcileScale(breaking(deps), key, context)).rejects.toMatchObject({ step, category: reason, object: 'ZookeeperScale ns/zk-size', cause: forbidden });
  });
});
