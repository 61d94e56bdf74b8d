// The reconcile loop: result handling, per-key serialization, the concurrency bound and draining on stop.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { pino } from 'pino';
import { Registry } from 'prom-client';
import { createRuntimeMetrics } from '../metrics/runtime-metrics.js';
import { formatKey, type ObjectKey } from '../kube/object.js';
import { KubeApiError } from '../kube/client.js';
import { Controller } from './controller.js';
import { ReconcileStepError } from './step-error.js';
import { done, requeueAfter, type ReconcileResult, type Reconciler } from './reconciler.js';

const silent = pino({ level: 'silent' });
const key = (name: string): ObjectKey => ({ namespace: 'ns', name });

/** A reconciler whose calls stay pending until the test settles them. */
function controllableReconciler(): { reconciler: Reconciler; calls: Array<{ key: string; settle: (r: ReconcileResult | Error) => void }> } {
  const calls: Array<{ key: string; settle: (r: ReconcileResult | Error) => void }> = [];
  const reconciler: Reconciler = (objectKey) =>
    new Promise((resolve, reject) => {
      calls.push({ key: formatKey(objectKey), settle: (r) => (r instanceof Error ? reject(r) : resolve(r)) });
    });
  return { reconciler, calls };
}

/** A controller with metrics and 100 ms base backoff, whose first reconcile of `ns/a` is pending. */
async function startedWithOneKey(): Promise<{ registry: Registry; calls: ReturnType<typeof controllableReconciler>['calls']; controller: Controller }> {
  const registry = new Registry();
  const { reconciler, calls } = controllableReconciler();
  const controller = new Controller({ name: 'c', reconciler, logger: silent, metrics: createRuntimeMetrics(registry), backoff: { baseMs: 100 } });
  controller.start();
  controller.enqueue(key('a'));
  await vi.advanceTimersByTimeAsync(1);
  return { registry, calls, controller };
}

describe('Controller', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('shows every result, error and queue series at 0 once started, as controller-runtime does, before any reconcile', async () => {
    const registry = new Registry();
    const { reconciler } = controllableReconciler();
    new Controller({ name: 'c', reconciler, logger: silent, metrics: createRuntimeMetrics(registry) }).start();
    const text = await registry.metrics();
    for (const result of ['success', 'requeue_after', 'error']) expect(text).toContain(`controller_runtime_reconcile_total{controller="c",result="${result}"} 0`);
    expect(text).toContain('controller_runtime_reconcile_errors_total{controller="c"} 0');
    expect(text).toContain('controller_runtime_active_workers{controller="c"} 0');
    expect(text).toContain('workqueue_depth{name="c"} 0');
  });

  it('never runs more reconciles at once than maxConcurrentReconciles', async () => {
    const { reconciler, calls } = controllableReconciler();
    const controller = new Controller({ name: 'c', reconciler, logger: silent, maxConcurrentReconciles: 2 });
    ['a', 'b', 'c', 'd'].forEach((name) => controller.enqueue(key(name)));
    controller.start();
    await vi.advanceTimersByTimeAsync(10);
    expect(calls.map((c) => c.key)).toEqual(['ns/a', 'ns/b']);
    calls[0]?.settle(done);
    await vi.advanceTimersByTimeAsync(10);
    expect(calls.map((c) => c.key)).toEqual(['ns/a', 'ns/b', 'ns/c']);
    calls.slice(1).forEach((c) => c.settle(done));
    await vi.advanceTimersByTimeAsync(10);
    calls.slice(3).forEach((c) => c.settle(done));
    await controller.stop();
  });

  it('tells a reconcile whether others run beside it or wait in the queue', async () => {
    const pending: Array<{ key: string; othersPending: () => boolean; settle: () => void }> = [];
    const reconciler: Reconciler = (objectKey, context) =>
      new Promise((resolve) => pending.push({ key: formatKey(objectKey), othersPending: context.othersPending, settle: () => resolve(done) }));
    const controller = new Controller({ name: 'c', reconciler, logger: silent, maxConcurrentReconciles: 2 });
    controller.start();
    controller.enqueue(key('a'));
    await vi.advanceTimersByTimeAsync(1);
    expect(pending[0]?.othersPending()).toBe(false);
    controller.enqueue(key('b'));
    controller.enqueue(key('c'));
    await vi.advanceTimersByTimeAsync(1);
    expect(pending.map((call) => [call.key, call.othersPending()])).toEqual([['ns/a', true], ['ns/b', true]]);
    pending[0]?.settle();
    pending[1]?.settle();
    await vi.advanceTimersByTimeAsync(1);
    expect(pending[2]).toMatchObject({ key: 'ns/c' });
    expect(pending[2]?.othersPending()).toBe(false);
    pending[2]?.settle();
    await controller.stop();
  });

  it('reconciles a key enqueued during its own reconcile once more, after it, never in parallel', async () => {
    const { reconciler, calls } = controllableReconciler();
    const controller = new Controller({ name: 'c', reconciler, logger: silent, maxConcurrentReconciles: 4 });
    controller.start();
    controller.enqueue(key('a'));
    await vi.advanceTimersByTimeAsync(1);
    controller.enqueue(key('a'));
    controller.enqueue(key('a'));
    await vi.advanceTimersByTimeAsync(10);
    expect(calls).toHaveLength(1);
    calls[0]?.settle(done);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toHaveLength(2);
    calls[1]?.settle(done);
    await vi.advanceTimersByTimeAsync(1000);
    expect(calls).toHaveLength(2);
    await controller.stop();
  });

  it('retries a failing key with growing backoff and counts errors and results', async () => {
    const { registry, calls, controller } = await startedWithOneKey();
    calls[0]?.settle(new Error('boom'));
    await vi.advanceTimersByTimeAsync(99);
    expect(calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toHaveLength(2);
    calls[1]?.settle(new Error('boom again'));
    await vi.advanceTimersByTimeAsync(199);
    expect(calls).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toHaveLength(3);
    calls[2]?.settle(done);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(calls).toHaveLength(3);
    const text = await registry.metrics();
    expect(text).toContain('controller_runtime_reconcile_errors_total{controller="c"} 2');
    expect(text).toContain('controller_runtime_reconcile_total{controller="c",result="error"} 2');
    expect(text).toContain('controller_runtime_reconcile_total{controller="c",result="success"} 1');
    expect(text).toContain('workqueue_retries_total{name="c"} 2');
    await controller.stop();
  });

  it('holds back the keys of a namespace being deleted for 10 s after a refused write, without counting an error', async () => {
    const { registry, calls, controller } = await startedWithOneKey();
    const refusal = new KubeApiError(403, 'Forbidden', 'PATCH', '/api/v1/namespaces/ns/configmaps/a', 'ns is being terminated', ['NamespaceTerminating']);
    calls[0]?.settle(new ReconcileStepError('ApplyChildren', 'ApplyChildren', 'ns/a', { cause: refusal }));
    await vi.advanceTimersByTimeAsync(1);
    controller.enqueue(key('b'));
    controller.enqueue({ namespace: 'other', name: 'c' });
    await vi.advanceTimersByTimeAsync(9_000);
    expect(calls.map((call) => call.key)).toEqual(['ns/a', 'other/c']);
    calls[1]?.settle(done);
    await vi.advanceTimersByTimeAsync(1_100);
    calls[2]?.settle(done);
    await vi.advanceTimersByTimeAsync(10);
    expect(calls.map((call) => call.key)).toEqual(['ns/a', 'other/c', 'ns/a', 'ns/b']);
    const text = await registry.metrics();
    expect(text).not.toContain('controller_runtime_reconcile_errors_total{controller="c"} 1');
    calls[3]?.settle(done);
    await controller.stop();
  });

  it('reconciles again after the delay a requeueAfter result asks for, and resets the backoff', async () => {
    const { reconciler, calls } = controllableReconciler();
    const controller = new Controller({ name: 'c', reconciler, logger: silent, backoff: { baseMs: 100 } });
    controller.start();
    controller.enqueue(key('a'));
    await vi.advanceTimersByTimeAsync(1);
    calls[0]?.settle(new Error('boom'));
    await vi.advanceTimersByTimeAsync(100);
    calls[1]?.settle(requeueAfter(5000));
    await vi.advanceTimersByTimeAsync(4999);
    expect(calls).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toHaveLength(3);
    calls[2]?.settle(new Error('boom after reset'));
    await vi.advanceTimersByTimeAsync(100);
    expect(calls).toHaveLength(4);
    calls[3]?.settle(done);
    await controller.stop();
  });

  it('stops taking keys on stop but lets the reconcile in flight finish first', async () => {
    const { reconciler, calls } = controllableReconciler();
    const controller = new Controller({ name: 'c', reconciler, logger: silent });
    controller.start();
    controller.enqueue(key('a'));
    controller.enqueue(key('b'));
    await vi.advanceTimersByTimeAsync(1);
    let stopped = false;
    void controller.stop().then(() => (stopped = true));
    await vi.advanceTimersByTimeAsync(1000);
    expect(stopped).toBe(false);
    calls[0]?.settle(done);
    await vi.advanceTimersByTimeAsync(1);
    expect(stopped).toBe(true);
    expect(calls.map((c) => c.key)).toEqual(['ns/a']);
  });

  it('aborts the reconcile context signal when stopping so long reconciles can give up', async () => {
    let seen: AbortSignal | undefined;
    const controller = new Controller({
      name: 'c',
      logger: silent,
      reconciler: (_key, context) => {
        seen = context.signal;
        return new Promise((resolve) => context.signal.addEventListener('abort', () => resolve(done)));
      },
    });
    controller.start();
    controller.enqueue(key('a'));
    await vi.advanceTimersByTimeAsync(1);
    expect(seen?.aborted).toBe(false);
    await controller.stop();
    expect(seen?.aborted).toBe(true);
  });
});
