// The object lock (a per-object Lease shared by disruptive operations) on the shared bed's apiserver:
// exclusion between operations, resumption by the same operation, takeover only after expiry, handover on
// release, no double holders under racing clients, and garbage collection with the locked object.
import { Writable } from 'node:stream';
import { ApiException, CoordinationV1Api, CoreV1Api } from '@kubernetes/client-node';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { disruptionLeaseName } from '@zk-oam/apis';
import { KubeClient, ObjectLock, lockOperationAnnotation, type LockOwner, PooledKubeConfig } from '@zk-oam/runtime';
import { waitForValue } from '../src/wait-for.js';
import { workerBed } from '../src/worker-bed.js';

const namespace = `runtime-lock-${Date.now().toString(36)}`;
const logLines: string[] = [];
const logger = pino(
  { level: 'info' },
  new Writable({
    write(chunk: Buffer, _encoding, callback): void {
      logLines.push(chunk.toString());
      callback();
    },
  }),
);

let kubeConfig: PooledKubeConfig;
let core: CoreV1Api;
let coordination: CoordinationV1Api;

/** A ConfigMap standing in for the locked object (a workload, in the controllers). */
async function lockedObject(name: string): Promise<LockOwner> {
  const created = await core.createNamespacedConfigMap({ namespace, body: { metadata: { name } } });
  const uid = created.metadata?.uid;
  if (uid === undefined) throw new Error(`ConfigMap ${name} came back without a uid`);
  return { apiVersion: 'v1', kind: 'ConfigMap', name, uid };
}

/** A lock as one controller process would build it: its own client, nothing shared with other processes. */
function lockOf(owner: LockOwner): ObjectLock {
  return new ObjectLock({ client: new KubeClient(kubeConfig), namespace, owner, leaseName: disruptionLeaseName(owner.name), logger });
}

/** The Lease's holder as the apiserver has it, or undefined when the Lease does not exist. */
async function holderOnServer(owner: LockOwner): Promise<string | undefined> {
  try {
    const lease = await coordination.readNamespacedLease({ namespace, name: disruptionLeaseName(owner.name) });
    return lease.spec?.holderIdentity ?? '';
  } catch (error) {
    if (error instanceof ApiException && error.code === 404) return undefined;
    throw error;
  }
}

describe('object lock on a real apiserver', () => {
  beforeAll(async () => {
    kubeConfig = new PooledKubeConfig();
    kubeConfig.loadFromFile(workerBed().kubeconfig);
    core = kubeConfig.makeApiClient(CoreV1Api);
    coordination = kubeConfig.makeApiClient(CoordinationV1Api);
    await core.createNamespace({ body: { metadata: { name: namespace } } });
  });

  afterAll(async () => {
    await core.deleteNamespace({ name: namespace }).catch((error: unknown) => {
      if (!(error instanceof ApiException && error.code === 404)) throw error;
    });
  });

  it('gives the lock to one operation, shows it busy to another, and to the same operation again at once after a restart', async () => {
    const owner = await lockedObject('contended');
    const scale = { leaseDurationSeconds: 60, operation: 'scale 3 -> 5: adding member 4' };
    expect(await lockOf(owner).tryAcquire('scale/contended', scale)).toEqual({ held: true });

    const busy = await lockOf(owner).tryAcquire('rolling/contended', { leaseDurationSeconds: 60, operation: 'restart' });
    expect(busy).toMatchObject({ held: false, holder: 'scale/contended', operation: scale.operation });
    if (busy.held) throw new Error('unreachable');
    expect(busy.expiresAt.getTime() - busy.since.getTime()).toBeGreaterThanOrEqual(59_000);

    // A new process acting for the same operation (after a crash, or the other replica) holds it at once.
    expect(await lockOf(owner).tryAcquire('scale/contended', scale)).toEqual({ held: true });
    const lease = await coordination.readNamespacedLease({ namespace, name: disruptionLeaseName('contended') });
    expect(lease.spec?.holderIdentity).toBe('scale/contended');
    expect(lease.spec?.leaseTransitions).toBe(0);
    expect(lease.metadata?.annotations?.[lockOperationAnnotation]).toBe(scale.operation);
    expect(lease.metadata?.ownerReferences?.map((reference) => [reference.kind, reference.name, reference.uid])).toEqual([
      ['ConfigMap', 'contended', owner.uid],
    ]);
  });

  it('lets another operation take over only after the holder stopped renewing for the lease duration', async () => {
    const owner = await lockedObject('expiring');
    const crashed = lockOf(owner);
    // Taken before the request, so the Lease's renewTime (written by this clock) is no earlier.
    const acquiredAt = Date.now();
    expect(await crashed.tryAcquire('scale/expiring', { leaseDurationSeconds: 3, operation: 'scale' })).toEqual({ held: true });

    const rolling = lockOf(owner);
    const tookOverAt = await waitForValue(
      'the rolling operation to take over',
      async () => {
        const result = await rolling.tryAcquire('rolling/expiring', { leaseDurationSeconds: 30, operation: 'restart' });
        return result.held ? Date.now() : undefined;
      },
      20_000,
      200,
    );
    console.info(`takeover ${String(tookOverAt - acquiredAt)} ms after a 3 s lease was last renewed`);
    expect(tookOverAt - acquiredAt).toBeGreaterThanOrEqual(3_000);
    const takeoverLogged = (line: string): boolean =>
      line.includes('lock taken over from an expired holder') && line.includes('"previousHolder":"scale/expiring"');
    expect(logLines.some(takeoverLogged)).toBe(true);

    // The crashed operation comes back: it has lost the lock and is told so.
    expect(await crashed.renew('scale/expiring')).toBe(false);
    expect(await crashed.tryAcquire('scale/expiring', { leaseDurationSeconds: 3, operation: 'scale' })).toMatchObject({
      held: false,
      holder: 'rolling/expiring',
    });
    const lease = await coordination.readNamespacedLease({ namespace, name: disruptionLeaseName('expiring') });
    expect(lease.spec?.leaseTransitions).toBe(1);
  });

  it('hands the lock over at once when its holder releases it', async () => {
    const owner = await lockedObject('released');
    const scale = lockOf(owner);
    const rolling = lockOf(owner);
    await scale.tryAcquire('scale/released', { leaseDurationSeconds: 300, operation: 'scale' });
    expect((await rolling.tryAcquire('rolling/released', { leaseDurationSeconds: 300, operation: 'restart' })).held).toBe(false);
    expect(await rolling.release('rolling/released')).toBe(false);

    expect(await scale.release('scale/released')).toBe(true);
    expect(await rolling.inspect()).toEqual({ kind: 'free' });
    expect(await rolling.tryAcquire('rolling/released', { leaseDurationSeconds: 300, operation: 'restart' })).toEqual({ held: true });
    expect(await holderOnServer(owner)).toBe('rolling/released');
  });

  it('never gives the lock to two operations racing from two clients (20 rounds, creates and updates)', async () => {
    let owner = await lockedObject('race-0');
    for (let round = 0; round < 20; round++) {
      // Even rounds race to create the Lease, odd rounds to take the released one.
      if (round % 2 === 0 && round > 0) owner = await lockedObject(`race-${String(round)}`);
      const [a, b] = [lockOf(owner), lockOf(owner)];
      const results = await Promise.all([
        a.tryAcquire('scale/race', { leaseDurationSeconds: 60, operation: `round ${String(round)}` }),
        b.tryAcquire('rolling/race', { leaseDurationSeconds: 60, operation: `round ${String(round)}` }),
      ]);
      const winners = [results[0].held ? 'scale/race' : undefined, results[1].held ? 'rolling/race' : undefined].filter((w) => w !== undefined);
      expect(winners, `round ${String(round)}`).toHaveLength(1);
      const loser = results.find((result) => !result.held);
      expect(loser, `round ${String(round)}`).toMatchObject({ held: false, holder: winners[0] });
      expect(await holderOnServer(owner), `round ${String(round)}`).toBe(winners[0]);
      const winner = winners[0] === 'scale/race' ? a : b;
      expect(await winner.release(winners[0] ?? '')).toBe(true);
    }
  });

  it('is garbage-collected with the locked object', async () => {
    const owner = await lockedObject('collected');
    await lockOf(owner).tryAcquire('scale/collected', { leaseDurationSeconds: 60, operation: 'scale' });
    expect(await holderOnServer(owner)).toBe('scale/collected');
    const started = Date.now();
    await core.deleteNamespacedConfigMap({ namespace, name: 'collected' });
    await waitForValue('the Lease to be garbage-collected', async () => ((await holderOnServer(owner)) === undefined ? true : undefined), 45_000, 250);
    console.info(`Lease collected ${String(Date.now() - started)} ms after its object was deleted`);
  });
});
