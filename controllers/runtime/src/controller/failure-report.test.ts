import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { KubeApiError } from '../kube/client.js';
import { namespacedResource } from '../kube/resource.js';
import type { EventDetails } from '../recorder/event-recorder.js';
import { describeFailure, reportingFailures } from './failure-report.js';
import type { Reconciler } from './reconciler.js';
import { ReconcileStepError } from './step-error.js';

const widgets = namespacedResource({ group: 'example.dev', version: 'v1', plural: 'widgets', kind: 'Widget' });
const key = { namespace: 'ns', name: 'w' };
const refused = new KubeApiError(422, 'Invalid', 'PATCH', '/apis/apps/v1/namespaces/ns/statefulsets/w', 'metadata.name: Invalid value: "w-headless": must be no more than 63 characters');
const stepFailure = new ReconcileStepError('ApplyChildren', 'ApplyFailed', 'Widget ns/w', { cause: refused });

/** A fake apiserver holding one Widget: GET answers it, a status apply merges the condition it carries. */
class OneWidget {
  widget: Record<string, unknown> | undefined = { apiVersion: 'example.dev/v1', kind: 'Widget', metadata: { name: 'w', namespace: 'ns', uid: 'u1', generation: 3 } };
  statusWrites: unknown[] = [];

  request(method: string, _path: string, options?: { body?: unknown }): Promise<unknown> {
    if (method === 'GET') {
      return this.widget === undefined
        ? Promise.reject(new KubeApiError(404, 'NotFound', 'GET', _path, 'not found'))
        : Promise.resolve(this.widget);
    }
    const body = options?.body as { status: Record<string, unknown> };
    this.statusWrites.push(body.status);
    this.widget = { ...this.widget, status: body.status };
    return Promise.resolve(this.widget);
  }
}

function harness(failWith: unknown): { api: OneWidget; events: EventDetails[]; clock: { ms: number }; reconcile: Reconciler } {
  const api = new OneWidget();
  const events: EventDetails[] = [];
  const clock = { ms: Date.parse('2026-11-24T10:00:00Z') };
  const reconcile = reportingFailures(() => Promise.reject(failWith), {
    client: api,
    recorder: { record: (_object, details) => Promise.resolve(void events.push(details)) },
    resource: widgets,
    conditionType: 'Ready',
    fieldManager: 'widgets-failures',
    logger: pino({ level: 'silent' }),
    eventIntervalMs: 60_000,
    clock: { now: () => clock.ms, setTimeout, clearTimeout, sleep: () => Promise.resolve() },
  });
  return { api, events, clock, reconcile };
}

const context = { log: pino({ level: 'silent' }), reconcileId: 'r1', signal: new AbortController().signal, othersPending: () => false };

describe('reportingFailures', () => {
  it("turns a failed step into a Warning Event and a False condition that carry the step, its category and the API server's message", async () => {
    const { api, events, reconcile } = harness(stepFailure);
    await expect(reconcile(key, context)).rejects.toBe(stepFailure);
    const message = 'step ApplyChildren failed (ApplyFailed): 422 Invalid: metadata.name: Invalid value: "w-headless": must be no more than 63 characters';
    expect(api.statusWrites).toStrictEqual([
      { conditions: [{ type: 'Ready', status: 'False', reason: 'ApplyFailed', message, observedGeneration: 3, lastTransitionTime: '2026-11-24T10:00:00Z' }] },
    ]);
    expect(events).toStrictEqual([{ type: 'Warning', reason: 'ApplyFailed', action: 'ApplyChildren', note: message }]);
  });

  it('reports an unexpected exception (a defect, not a step) as InternalError instead of a silent retry', async () => {
    const defect = new TypeError("Cannot read properties of undefined (reading 'spec')");
    const { api, events, reconcile } = harness(defect);
    await expect(reconcile(key, context)).rejects.toBe(defect);
    expect(events).toMatchObject([{ type: 'Warning', reason: 'InternalError', action: 'Reconcile' }]);
    expect(api.statusWrites).toMatchObject([{ conditions: [{ reason: 'InternalError', message: expect.stringContaining('reading \'spec\'') }] }]);
  });

  it('writes the condition once and one Event per interval while the same step keeps failing', async () => {
    const { api, events, clock, reconcile } = harness(stepFailure);
    for (let attempt = 0; attempt < 5; attempt++) {
      await expect(reconcile(key, context)).rejects.toBe(stepFailure);
      clock.ms += 5_000;
    }
    expect(api.statusWrites).toHaveLength(1);
    expect(events).toHaveLength(1);
    clock.ms += 60_000;
    await expect(reconcile(key, context)).rejects.toBe(stepFailure);
    expect(events).toHaveLength(2);
    expect(api.statusWrites).toHaveLength(1);
  });

  it('keeps the condition dated from the first failure while another failure follows it, and applies that condition only', async () => {
    const { api, reconcile } = harness(stepFailure);
    const degraded = { type: 'Degraded', status: 'True', reason: 'MemberDown', message: 'zk-1 is down', lastTransitionTime: '2026-11-24T09:00:00Z' };
    const earlier = { type: 'Ready', status: 'False', reason: 'ObservationFailed', message: 'srvr timed out', lastTransitionTime: '2026-11-24T09:30:00Z' };
    api.widget = { ...api.widget, status: { conditions: [degraded, earlier] } };
    await expect(reconcile(key, context)).rejects.toBe(stepFailure);
    expect(api.statusWrites).toStrictEqual([
      { conditions: [{ type: 'Ready', status: 'False', reason: 'ApplyFailed', message: describeFailure(stepFailure).message, observedGeneration: 3, lastTransitionTime: '2026-11-24T09:30:00Z' }] },
    ]);
  });

  it('reports nothing for an object that is gone, and still lets the kit retry', async () => {
    const { api, events, reconcile } = harness(stepFailure);
    api.widget = undefined;
    await expect(reconcile(key, context)).rejects.toBe(stepFailure);
    expect(events).toHaveLength(0);
    expect(api.statusWrites).toHaveLength(0);
  });

  it('reports nothing when the namespace is being deleted: the write was refused only because everything there is going', async () => {
    const terminating = new KubeApiError(403, 'Forbidden', 'PATCH', '/api/v1/namespaces/ns/configmaps/w', 'unable to create new content in namespace ns because it is being terminated', ['NamespaceTerminating']);
    const failure = new ReconcileStepError('ApplyChildren', 'ApplyFailed', 'Widget ns/w', { cause: terminating });
    const { api, events, reconcile } = harness(failure);
    await expect(reconcile(key, context)).rejects.toBe(failure);
    expect(events).toHaveLength(0);
    expect(api.statusWrites).toHaveLength(0);
  });

  it('passes a successful result through untouched', async () => {
    const api = new OneWidget();
    const reconcile = reportingFailures(() => Promise.resolve({ kind: 'done' }), {
      client: api,
      recorder: { record: () => Promise.reject(new Error('must not record')) },
      resource: widgets,
      conditionType: 'Ready',
      fieldManager: 'widgets-failures',
      logger: pino({ level: 'silent' }),
    });
    await expect(reconcile(key, context)).resolves.toStrictEqual({ kind: 'done' });
    expect(api.statusWrites).toHaveLength(0);
  });
});

describe('describeFailure', () => {
  it('keeps a step error that is not an API refusal as its cause says', () => {
    const timeout = new ReconcileStepError('Observe', 'ZooKeeperUnreachable', 'Widget ns/w', { cause: new Error('srvr timed out') });
    expect(describeFailure(timeout)).toStrictEqual({ step: 'Observe', category: 'ZooKeeperUnreachable', message: 'step Observe failed (ZooKeeperUnreachable): srvr timed out' });
  });
});
