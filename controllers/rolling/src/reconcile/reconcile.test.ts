// The reconcile pipeline with the apiserver and ZooKeeper faked: what it cannot act on (a spec that does not validate, a
// missing workload, a lock lost while a pod it restarted is on its way back) is a condition and one Warning, with
// nothing done and nothing recorded lost; a lock another operation holds before a step is a turn to wait for.
import {
  disruptionLockHolder,
  myidOfOrdinal,
  podName,
  ROLLING_BINDING_ANNOTATION,
  rollingStatusSchema,
  statefulSetNameOf,
  workloadLabels,
  ZOOKEEPER_ROLLING,
  ZOOKEEPER_WORKLOAD,
  type ZookeeperRollingStatus,
} from '@zk-oam/apis';
import { createLogger, RequeuePacer, type KubeObject, type Lister, type LockResult, type ObjectKey, type TraitState } from '@zk-oam/runtime';
import { formatServerLine, type EnsembleObservation } from '@zk-oam/zookeeper';
import { follower, ipOf, leader, notServing, server, THREE_VOTERS } from '@zk-oam/zookeeper/testing';
import { decidingBinding } from '@zk-oam/runtime/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { RollingReconcilerDependencies } from './dependencies.js';
import { reconcileRolling } from './reconcile.js';
import { IDENTITY, UNBIND_FINALIZER, workloadResource } from './resources.js';
import { REVISION_LABEL } from './views.js';

const namespace = 'ns';
const WORKLOAD = 'zk';
const STATEFUL_SET = statefulSetNameOf(WORKLOAD);
const key = { namespace, name: 'roll' };
const log = createLogger({ name: 'test', level: 'silent' });
const context = { log, reconcileId: 'test', signal: new AbortController().signal, othersPending: () => false };
const appliedStatusSchema = z.looseObject({ status: rollingStatusSchema });
const taken: LockResult = { held: false, holder: disruptionLockHolder('scale', 'grow'), since: new Date('2025-12-31T23:59:00Z'), expiresAt: new Date('2026-01-01T00:00:30Z') };

function lister(objects: KubeObject[]): Lister<KubeObject> {
  return { get: (wanted: ObjectKey) => objects.find((object) => object.metadata.name === wanted.name), list: () => objects };
}

/** A member pod at `revision`, ready or not, at the IP its member answers on. */
function pod(ordinal: number, revision: string, ready: boolean): KubeObject {
  return {
    metadata: { name: podName(STATEFUL_SET, ordinal), namespace, uid: `pod-${String(ordinal)}`, creationTimestamp: '2025-12-31T00:00:00Z', labels: { ...workloadLabels(WORKLOAD), [REVISION_LABEL]: revision } },
    status: {
      podIP: ipOf(myidOfOrdinal(ordinal)),
      conditions: [{ type: 'Ready', status: ready ? 'True' : 'False', lastTransitionTime: '2025-12-31T00:00:00Z' }],
      containerStatuses: [{ restartCount: 0 }],
    },
  };
}

interface HarnessOptions {
  spec?: Record<string, unknown>;
  status?: ZookeeperRollingStatus;
  workloadMissing?: boolean;
  pods?: KubeObject[];
  ensemble?: EnsembleObservation['members'];
  /** Answers every tryAcquire. */
  lock?: LockResult;
}

/** Three members on StatefulSet zk at update revision zk-new, member 1 (zk-0) leading. */
function harness(options: HarnessOptions = {}) {
  const calls: string[] = [];
  const statuses: ZookeeperRollingStatus[] = [];
  const reported: TraitState[] = [];
  const trait = {
    apiVersion: ZOOKEEPER_ROLLING.apiVersion,
    kind: ZOOKEEPER_ROLLING.kind,
    metadata: { ...key, uid: 'trait-uid', generation: 3, resourceVersion: '7', finalizers: [UNBIND_FINALIZER] },
    spec: { workloadRef: { name: WORKLOAD }, ...options.spec },
    ...(options.status === undefined ? {} : { status: options.status }),
  };
  const workload = { apiVersion: ZOOKEEPER_WORKLOAD.apiVersion, kind: ZOOKEEPER_WORKLOAD.kind, metadata: { name: WORKLOAD, namespace, uid: 'workload-uid' }, spec: { replicas: 3 } };
  const statefulSet = { metadata: { name: STATEFUL_SET, namespace, generation: 2 }, spec: { replicas: 3, updateStrategy: { type: 'OnDelete' } }, status: { observedGeneration: 2, updateRevision: 'zk-new' } };
  const pods = options.pods ?? [0, 1, 2].map((ordinal) => pod(ordinal, 'zk-old', true));
  const ensemble: EnsembleObservation = {
    members: options.ensemble ?? [leader(1), follower(2), follower(3)],
    committed: { ok: true, config: THREE_VOTERS, readFrom: podName(STATEFUL_SET, 0) },
  };
  const deps: RollingReconcilerDependencies = {
    client: {
      request: (verb, path, request) => {
        if (path.endsWith('/status')) {
          statuses.push(appliedStatusSchema.parse(request?.body).status);
          return Promise.resolve({});
        }
        if (verb !== 'GET') calls.push(`${verb} ${path}`);
        if (path.endsWith(`/statefulsets/${STATEFUL_SET}`)) return Promise.resolve(statefulSet);
        if (path.endsWith('/pods')) return Promise.resolve({ items: pods });
        return Promise.resolve({});
      },
    },
    caches: { traits: lister([trait]), workloads: lister(options.workloadMissing === true ? [] : [workload]) },
    binding: decidingBinding({ workloadResource, bindingAnnotation: ROLLING_BINDING_ANNOTATION }),
    traitMetrics: { report: (_key, state) => void reported.push(state), forget: () => undefined },
    lockOf: () => ({
      tryAcquire: (holder) => Promise.resolve(void calls.push(`lock ${holder}`)).then(() => options.lock ?? { held: true }),
      release: (holder) => Promise.resolve(void calls.push(`release ${holder}`)).then(() => true),
    }),
    recorder: { record: (_object, details) => Promise.resolve(void calls.push(`event ${details.reason}`)) },
    bus: { publish: (event) => Promise.resolve(void calls.push(`nats ${event.type}`)) },
    observe: () => Promise.resolve(ensemble),
    connectAdmin: () => Promise.reject(new Error('no ZooKeeper in this test')),
    now: () => new Date('2026-01-01T00:00:00Z'),
    source: IDENTITY.name,
    timing: { stepMs: 2_000, afterDeleteMs: 500, idleMs: 60_000, lockDurationSeconds: 60 },
    // No jitter and room for every look: an idle trait is looked at again after exactly idleMs.
    pacer: new RequeuePacer({ perSecond: 1_000, jitter: 0 }),
  };
  return { deps, calls, statuses, reported };
}

const condition = (status: ZookeeperRollingStatus | undefined, type: string) => status?.conditions?.find((entry) => entry.type === type);

/** Pod zk-2 deleted by this roll and back at the new revision, not ready yet; zk-0 (the leader) and zk-1 still to go. */
const onItsWayBack: ZookeeperRollingStatus = {
  phase: 'Rolling',
  targetRevision: 'zk-new',
  updatedReplicas: 0,
  pendingReplicas: 3,
  startedAt: '2025-12-31T23:50:00Z',
  leaderRestarted: false,
  currentPod: podName(STATEFUL_SET, 2),
};
const podsWithZk2Back = [pod(0, 'zk-old', true), pod(1, 'zk-old', true), pod(2, 'zk-new', false)];

describe('reconcileRolling: what it cannot act on is a condition and one Warning, nothing done, nothing recorded lost', () => {
  const handingOver: ZookeeperRollingStatus = {
    ...onItsWayBack,
    currentPod: podName(STATEFUL_SET, 0),
    handover: { pod: podName(STATEFUL_SET, 0), server: formatServerLine(server(1)), startedAt: '2025-12-31T23:58:00Z' },
  };

  it('reports a spec that does not validate as Ready=False/InvalidSpec, keeps the rest of the status (a handover record too), and waits for a spec change', async () => {
    const { deps, calls, statuses, reported } = harness({ spec: { leaderHandover: 'Teleport' }, status: handingOver });
    expect(await reconcileRolling(deps, key, context)).toEqual({ kind: 'done' });
    expect(statuses.at(-1)).toMatchObject(handingOver);
    expect(condition(statuses.at(-1), 'Ready')).toMatchObject({ status: 'False', reason: 'InvalidSpec', observedGeneration: 3, message: expect.stringContaining('spec.leaderHandover') as unknown });
    expect(calls).toEqual(['event InvalidSpec']);
    expect(reported.at(-1)).toEqual({ blocked: true, operationStartedAt: new Date('2025-12-31T23:50:00Z') });

    const again = harness({ spec: { leaderHandover: 'Teleport' }, status: statuses.at(-1) });
    expect(await reconcileRolling(again.deps, key, context)).toEqual({ kind: 'done' });
    expect(again.statuses).toEqual([]);
    expect(again.calls).toEqual([]);
  });

  it('reports a missing workload as Blocked with the binding\'s reason and a Warning, keeping the roll it recorded, touching no lock', async () => {
    const { deps, calls, statuses } = harness({ workloadMissing: true, status: onItsWayBack });
    expect(await reconcileRolling(deps, key, context)).toEqual({ kind: 'requeueAfter', ms: 60_000 });
    expect(statuses.at(-1)).toMatchObject({ ...onItsWayBack, phase: 'Blocked' });
    expect(condition(statuses.at(-1), 'Ready')).toMatchObject({ status: 'False', reason: 'WorkloadNotFound' });
    expect(condition(statuses.at(-1), 'Bound')).toMatchObject({ status: 'False', reason: 'WorkloadNotFound' });
    expect(calls).toEqual(['event WorkloadNotFound']);
  });

  it('reports a lock taken while a pod it restarted is on its way back as lost: Ready=False/DisruptionLockLost, one Warning, nothing deleted', async () => {
    const options = { status: onItsWayBack, pods: podsWithZk2Back, ensemble: [leader(1, { followers: 1 }), follower(2), notServing(3)], lock: taken };
    const { deps, calls, statuses, reported } = harness(options);
    expect(await reconcileRolling(deps, key, context)).toEqual({ kind: 'requeueAfter', ms: 2_000 });
    expect(calls).toEqual(['lock rolling/roll', 'event DisruptionLockLost']);
    expect(statuses.at(-1)).toMatchObject({ phase: 'Rolling', currentPod: onItsWayBack.currentPod, startedAt: onItsWayBack.startedAt });
    expect(condition(statuses.at(-1), 'Waiting')).toMatchObject({ status: 'True', reason: 'DisruptionLockLost', message: expect.stringContaining('the lock zk-disruption expired') as unknown });
    expect(condition(statuses.at(-1), 'Ready')).toMatchObject({ status: 'False', reason: 'DisruptionLockLost', message: expect.stringContaining('scale/grow has held it since 2025-12-31T23:59:00Z') as unknown });
    expect(reported.at(-1)?.blocked).toBe(false);

    const again = harness({ ...options, status: statuses.at(-1) });
    await reconcileRolling(again.deps, key, context);
    expect(again.calls).toEqual(['lock rolling/roll']);
  });

  it('waits its turn without a Warning when another operation holds the lock before its first restart', async () => {
    const { deps, calls, statuses } = harness({ lock: taken });
    expect(await reconcileRolling(deps, key, context)).toEqual({ kind: 'requeueAfter', ms: 2_000 });
    expect(calls).toEqual(['lock rolling/roll']);
    expect(condition(statuses.at(-1), 'Waiting')).toMatchObject({ reason: 'DisruptionLockBusy' });
    expect(condition(statuses.at(-1), 'Ready')).toMatchObject({ status: 'True' });
  });

  it('records no leader handover while another operation holds the lock: nothing it may not start yet', async () => {
    const rolled = [pod(0, 'zk-old', true), pod(1, 'zk-new', true), pod(2, 'zk-new', true)];
    const { deps, calls, statuses } = harness({ spec: { leaderHandover: 'Reconfigure' }, status: { ...onItsWayBack, currentPod: undefined }, pods: rolled, lock: taken });
    await reconcileRolling(deps, key, context);
    expect(calls).toEqual(['lock rolling/roll']);
    expect(statuses.at(-1)?.handover).toBeUndefined();
    expect(statuses.at(-1)?.currentPod).toBeUndefined();
    expect(condition(statuses.at(-1), 'Waiting')).toMatchObject({ reason: 'DisruptionLockBusy' });
  });
});

describe('reconcileRolling: a failed step', () => {
  const forbidden = new Error('leases.coordination.k8s.io is forbidden');

  it.each([
    ['Lock', 'LockFailed', (deps: RollingReconcilerDependencies): RollingReconcilerDependencies => ({ ...deps, lockOf: () => ({ tryAcquire: () => Promise.reject(forbidden), release: () => Promise.reject(forbidden) }) })],
    ['Observe', 'ObservationFailed', (deps: RollingReconcilerDependencies): RollingReconcilerDependencies => ({ ...deps, observe: () => Promise.reject(forbidden) })],
  ] as const)('%s fails with %s, the reason the scale trait gives the same failure', async (step, reason, breaking) => {
    const { deps } = harness();
    await expect(reconcileRolling(breaking(deps), key, context)).rejects.toMatchObject({ step, category: reason, object: 'ZookeeperRolling ns/roll', cause: forbidden });
  });
});
