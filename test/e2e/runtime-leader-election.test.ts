// Leader election between real controller processes on the shared bed: exactly one of two replicas leads;
// killing the leader hands over after the lease expires; a graceful stop hands over at once (lease released).
// Lease settings are controller-runtime's defaults (15 s duration, 10 s renew deadline, 2 s retry period).
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { CoordinationV1Api, CoreV1Api } from '@kubernetes/client-node';
import { z } from 'zod';
import { coreResources, isApiError, KubeClient, microTime, objectPath, pause, PooledKubeConfig } from '@zk-oam/runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../src/bed/ports.js';
import { waitForValue } from '../src/wait-for.js';
import { workerBed } from '../src/worker-bed.js';

const fixture = fileURLToPath(new URL('../fixtures/trivial-controller.ts', import.meta.url));
const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const leaseDurationMs = 15_000;
const retryPeriodMs = 2_000;
const namespace = `runtime-le-${Date.now().toString(36)}`;

interface Replica {
  readonly identity: string;
  readonly port: number;
  readonly child: ChildProcess;
  readonly lines: string[];
  readonly exited: Promise<number | null>;
}

const replicas: Replica[] = [];
let kubeConfig: PooledKubeConfig;
let core: CoreV1Api;
let coordination: CoordinationV1Api;

async function startReplica(identity: string): Promise<Replica> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', fixture], {
    cwd: repoRoot,
    env: { ...process.env, KUBECONFIG: workerBed().kubeconfig, IDENTITY: identity, NAMESPACE: namespace, HTTP_PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  createInterface({ input: child.stdout }).on('line', (line) => lines.push(line));
  createInterface({ input: child.stderr }).on('line', (line) => lines.push(line));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const replica = { identity, port, child, lines, exited };
  replicas.push(replica);
  return replica;
}

/** The replica's own view, from its /metrics: 1 while it holds the lease. */
async function leaderGauge(replica: Replica): Promise<number | undefined> {
  try {
    const text = await (await fetch(`http://127.0.0.1:${String(replica.port)}/metrics`)).text();
    const match = /^leader_election_master_status\{name="trivial-controller"\} (\d)$/m.exec(text);
    return match?.[1] === undefined ? undefined : Number(match[1]);
  } catch {
    return undefined;
  }
}

/** Renewals of the lease the replica has made while leading, from its /metrics (its renew interval histogram). */
async function renewals(replica: Replica): Promise<number> {
  const text = await (await fetch(`http://127.0.0.1:${String(replica.port)}/metrics`)).text();
  const match = /^leader_election_renew_interval_seconds_count\{name="trivial-controller"\} (\d+)$/m.exec(text);
  return Number(match?.[1] ?? 0);
}

async function leaseHolder(): Promise<string> {
  try {
    const lease = await coordination.readNamespacedLease({ namespace, name: 'trivial-controller' });
    return lease.spec?.holderIdentity ?? '';
  } catch {
    return '';
  }
}

function poll<T>(what: string, timeoutMs: number, probe: () => Promise<T | undefined>): Promise<T> {
  return waitForValue(what, probe, timeoutMs, 200);
}

/** Waits until `replica` holds the lease and says so itself; returns the time it took. */
async function waitUntilLeading(replica: Replica, timeoutMs: number): Promise<number> {
  const started = Date.now();
  await poll(`${replica.identity} to lead`, timeoutMs, async () =>
    (await leaseHolder()) === replica.identity && (await leaderGauge(replica)) === 1 ? true : undefined,
  );
  return Date.now() - started;
}

async function annotationBy(name: string): Promise<string | undefined> {
  const configMap = await core.readNamespacedConfigMap({ namespace, name });
  return configMap.metadata?.annotations?.['zkoam.dev/reconciled-by'];
}

describe('leader election between controller processes', () => {
  beforeAll(async () => {
    kubeConfig = new PooledKubeConfig();
    kubeConfig.loadFromFile(workerBed().kubeconfig);
    core = kubeConfig.makeApiClient(CoreV1Api);
    coordination = kubeConfig.makeApiClient(CoordinationV1Api);
    await core.createNamespace({ body: { metadata: { name: namespace } } });
  });

  afterAll(async () => {
    for (const replica of replicas) {
      if (replica.child.exitCode === null && replica.child.signalCode === null) replica.child.kill('SIGKILL');
      await replica.exited;
    }
    await core.deleteNamespace({ name: namespace }).catch(() => undefined);
  });

  it('lets exactly one of two replicas lead, and only the leader reconciles', async () => {
    const [a, b] = [await startReplica('replica-a'), await startReplica('replica-b')];
    const leader = await poll('a lease holder', 60_000, async () => {
      const holder = await leaseHolder();
      return holder === '' ? undefined : holder;
    });
    const [first, second] = leader === a.identity ? [a, b] : [b, a];
    await waitUntilLeading(first, 30_000);
    // Both are up (serving metrics); the follower keeps campaigning without leading. Two renewals of the leader later,
    // the follower has tried again (every retry period, as the leader renews) and still follows.
    await poll('the follower to serve metrics', 30_000, async () => ((await leaderGauge(second)) === 0 ? true : undefined));
    const renewed = await renewals(first);
    await poll('two renewals by the leader', 30_000, async () => ((await renewals(first)) >= renewed + 2 ? true : undefined));
    expect([await leaderGauge(first), await leaderGauge(second)]).toEqual([1, 0]);
    expect(await leaseHolder()).toBe(first.identity);

    await core.createNamespacedConfigMap({
      namespace,
      body: { metadata: { name: 'first', labels: { 'zkoam.dev/trivial': 'yes' } } },
    });
    expect(await poll('the leader to annotate', 30_000, () => annotationBy('first'))).toBe(first.identity);
  });

  it('hands over to the other replica within the lease duration when the leader is killed', async () => {
    const holder = await leaseHolder();
    const leader = replicas.find((r) => r.identity === holder);
    const follower = replicas.find((r) => r.identity !== holder);
    if (leader === undefined || follower === undefined) throw new Error(`no leader/follower pair (holder ${holder})`);

    leader.child.kill('SIGKILL');
    await leader.exited;
    const tookMs = await waitUntilLeading(follower, 60_000);
    console.info(`failover after SIGKILL took ${String(tookMs)} ms`);

    // The dead leader never released the lease, so the follower must wait for it to expire: not before most of
    // leaseDuration. (How soon after is a figure, printed above; no upper bound on time is asserted.)
    expect(tookMs).toBeGreaterThan(leaseDurationMs - 2 * retryPeriodMs);
    await core.patchNamespacedConfigMap({
      namespace,
      name: 'first',
      body: [{ op: 'add', path: '/data', value: { touched: 'after-failover' } }],
    });
    expect(await poll('the new leader to annotate', 30_000, async () => {
      const by = await annotationBy('first');
      return by === follower.identity ? by : undefined;
    })).toBe(follower.identity);
  });

  it('releases the lease when the leader stops gracefully, so the standby takes over without waiting for it to expire', async () => {
    const holder = await leaseHolder();
    const leader = replicas.find((r) => r.identity === holder);
    if (leader === undefined) throw new Error(`no running leader (holder ${holder})`);
    const standby = await startReplica('replica-c');
    await poll('the standby to serve metrics', 30_000, async () => ((await leaderGauge(standby)) === 0 ? true : undefined));

    leader.child.kill('SIGTERM');
    const tookMs = await waitUntilLeading(standby, 30_000);
    console.info(`handover after SIGTERM took ${String(tookMs)} ms`);

    expect(await leader.exited).toBe(0);
    expect(leader.lines.some((line) => line.includes('released the lease'))).toBe(true);
  });

  it('exits non-zero when another holder takes the lease and it cannot renew within the renew deadline', async () => {
    const holder = await leaseHolder();
    const leader = replicas.find((r) => r.identity === holder);
    if (leader === undefined) throw new Error(`no running leader (holder ${holder})`);
    const started = Date.now();
    // An intruder keeps renewing the lease in its own name, as a partitioned-away leader would see it.
    // Raw JSON: client-node's typed Lease sends renewTime with milliseconds, which the apiserver refuses.
    const client = new KubeClient(kubeConfig);
    const path = objectPath(coreResources.lease, { namespace, name: 'trivial-controller' });
    const steal = async (): Promise<void> => {
      const lease = z.looseObject({ spec: z.looseObject({}) }).parse(await client.request('GET', path));
      const body = { ...lease, spec: { ...lease.spec, holderIdentity: 'intruder', renewTime: microTime(Date.now()) } };
      await client.request('PUT', path, { body }).catch((error: unknown) => {
        // Losing a race with the leader's own renewal is expected; anything else is a broken test.
        if (!isApiError(error, 409)) throw error;
      });
    };
    let code: number | null | undefined;
    void leader.exited.then((c) => (code = c));
    while (code === undefined && Date.now() - started < 40_000) {
      await steal();
      await pause(500);
    }
    const tookMs = Date.now() - started;
    console.info(`leader gave up after ${String(tookMs)} ms`);
    expect(code).toBe(1);
    expect(leader.lines.some((line) => line.includes('leadership lost'))).toBe(true);
    expect(tookMs).toBeGreaterThan(8_000);
  });
});
