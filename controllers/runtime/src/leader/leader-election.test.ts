// Leader election against an in-memory Lease API with optimistic concurrency, under fake timers.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { pino } from 'pino';
import { Registry } from 'prom-client';
import { createRuntimeMetrics } from '../metrics/runtime-metrics.js';
import { KubeApiError, type KubeClient, type RequestOptions, type Verb } from '../kube/client.js';
import { LeaderElector, type ElectionEnd } from './leader-election.js';
import { leaseSchema, type Lease } from './lease.js';

/** One Lease, stored like the apiserver does: writes must carry the current resourceVersion. */
class LeaseApi implements Pick<KubeClient, 'request'> {
  lease: Lease | undefined;
  reachable = true;
  readonly verbs: Verb[] = [];
  private version = 0;

  request(verb: Verb, path: string, options: RequestOptions = {}): Promise<unknown> {
    this.verbs.push(verb);
    if (!this.reachable) return Promise.reject(new Error('connect ECONNREFUSED'));
    const fail = (code: number): Promise<never> => Promise.reject(new KubeApiError(code, 'Test', verb, path, 'refused'));
    switch (verb) {
      case 'GET':
        return this.lease === undefined ? fail(404) : Promise.resolve(structuredClone(this.lease));
      case 'POST':
        return this.lease === undefined ? Promise.resolve(this.store(options.body)) : fail(409);
      case 'PUT': {
        const body = leaseSchema.parse(options.body);
        return body.metadata.resourceVersion === this.lease?.metadata.resourceVersion ? Promise.resolve(this.store(body)) : fail(409);
      }
      case 'PATCH':
      case 'DELETE':
        return fail(405);
    }
  }

  /** Another process holds the lease, renewed just now. */
  heldBy(holder: string): void {
    this.store({ metadata: { name: 'l', namespace: 'ns' }, spec: { holderIdentity: holder, leaseDurationSeconds: 15, renewTime: new Date().toISOString() } });
  }

  get holder(): string {
    return this.lease?.spec?.holderIdentity ?? '';
  }

  private store(body: unknown): Lease {
    const lease = leaseSchema.parse(body);
    this.lease = { ...lease, metadata: { ...lease.metadata, resourceVersion: String(++this.version) } };
    return structuredClone(this.lease);
  }
}

interface Candidate {
  readonly elector: LeaderElector;
  readonly stop: AbortController;
  readonly end: Promise<ElectionEnd>;
  readonly calls: string[];
}

/** Elector `a` of lease `l`, running with the leader metrics of a registry of its own until `stop` aborts. */
function runMeasuredElector(api: LeaseApi): { elector: LeaderElector; registry: Registry; stop: AbortController; end: Promise<ElectionEnd> } {
  const registry = new Registry();
  const { leaderRenewInterval: renewInterval, leaderSlowpath: slowpath } = createRuntimeMetrics(registry);
  const elector = new LeaderElector({ client: api, namespace: 'ns', name: 'l', identity: 'a', logger: pino({ level: 'silent' }), renewInterval, slowpath });
  const stop = new AbortController();
  const end = elector.run(stop.signal, { onStartedLeading: () => undefined, onStoppedLeading: () => undefined });
  return { elector, registry, stop, end };
}

describe('LeaderElector', () => {
  let api: LeaseApi;

  function candidate(identity: string): Candidate {
    const elector = new LeaderElector({ client: api, namespace: 'ns', name: 'l', identity, logger: pino({ level: 'silent' }) });
    const stop = new AbortController();
    const calls: string[] = [];
    const end = elector.run(stop.signal, { onStartedLeading: () => calls.push('started'), onStoppedLeading: () => calls.push('stopped') });
    return { elector, stop, end, calls };
  }

  beforeEach(() => {
    vi.useFakeTimers();
    api = new LeaseApi();
  });
  afterEach(() => vi.useRealTimers());

  it('lets exactly one of two candidates lead, and keeps it leading while it renews', async () => {
    const a = candidate('a');
    const b = candidate('b');
    await vi.advanceTimersByTimeAsync(100);
    expect([a.elector.isLeader(), b.elector.isLeader()]).toEqual([true, false]);
    await vi.advanceTimersByTimeAsync(60_000);
    expect([a.elector.isLeader(), b.elector.isLeader()]).toEqual([true, false]);
    expect(api.holder).toBe('a');
    a.stop.abort();
    b.stop.abort();
    await Promise.all([a.end, b.end]);
  });

  it('measures the time between renewals: the retry period, and longer while the apiserver does not answer', async () => {
    const { registry, stop, end } = runMeasuredElector(api);
    await vi.advanceTimersByTimeAsync(10_100);
    api.reachable = false;
    await vi.advanceTimersByTimeAsync(6_000);
    api.reachable = true;
    await vi.advanceTimersByTimeAsync(2_000);
    const metric = await registry.getSingleMetricAsString('leader_election_renew_interval_seconds');
    expect(metric).toContain('leader_election_renew_interval_seconds_bucket{le="2",name="l"} 5');
    expect(metric).toContain('leader_election_renew_interval_seconds_bucket{le="7.5",name="l"} 5');
    expect(metric).toContain('leader_election_renew_interval_seconds_bucket{le="10",name="l"} 6');
    stop.abort();
    await end;
  });

  it('renews with one update of the lease it wrote, and reads the lease first only after someone else wrote it', async () => {
    const { elector, registry, stop, end } = runMeasuredElector(api);
    await vi.advanceTimersByTimeAsync(100);
    api.verbs.length = 0;
    await vi.advanceTimersByTimeAsync(10_000);
    expect(api.verbs).toEqual(['PUT', 'PUT', 'PUT', 'PUT', 'PUT']);
    // Someone else touches the lease (kubectl annotate, say): the next optimistic update is refused.
    const touched = structuredClone(api.lease);
    if (touched !== undefined) api.lease = { ...touched, metadata: { ...touched.metadata, resourceVersion: '999' } };
    api.verbs.length = 0;
    await vi.advanceTimersByTimeAsync(2_000);
    expect(api.verbs).toEqual(['PUT', 'GET', 'PUT']);
    expect(elector.isLeader()).toBe(true);
    expect(await registry.getSingleMetricAsString('leader_election_slowpath_total')).toContain('leader_election_slowpath_total{name="l"} 1');
    stop.abort();
    await end;
  });

  it('takes over a lease its holder stopped renewing only after the lease duration', async () => {
    api.heldBy('crashed');
    const b = candidate('b');
    await vi.advanceTimersByTimeAsync(14_000);
    expect(b.elector.isLeader()).toBe(false);
    await vi.advanceTimersByTimeAsync(15_000 + 2 * 2_400 - 14_000);
    expect(b.elector.isLeader()).toBe(true);
    expect(api.lease?.spec?.leaseTransitions).toBe(1);
    b.stop.abort();
    await b.end;
  });

  it('releases the lease on stop so a waiting candidate takes over within a retry period', async () => {
    const a = candidate('a');
    await vi.advanceTimersByTimeAsync(100);
    const b = candidate('b');
    await vi.advanceTimersByTimeAsync(5_000);
    a.stop.abort();
    expect(await a.end).toBe('stopped');
    expect(a.calls).toEqual(['started', 'stopped']);
    expect(api.holder).toBe('');
    await vi.advanceTimersByTimeAsync(2_400);
    expect(b.elector.isLeader()).toBe(true);
    b.stop.abort();
    await b.end;
  });

  it('gives up leadership when it cannot renew within the renew deadline', async () => {
    const a = candidate('a');
    await vi.advanceTimersByTimeAsync(100);
    api.reachable = false;
    await vi.advanceTimersByTimeAsync(8_000);
    expect(a.elector.isLeader()).toBe(true);
    await vi.advanceTimersByTimeAsync(4_000);
    expect(await a.end).toBe('lost');
    expect(a.elector.isLeader()).toBe(false);
    expect(a.calls).toEqual(['started', 'stopped']);
  });
});
