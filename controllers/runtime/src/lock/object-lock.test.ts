// ObjectLock against an in-memory Lease endpoint with the apiserver's optimistic concurrency, on a fake clock.
import { describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { KubeApiError, type KubeClient, type RequestOptions, type Verb } from '../kube/client.js';
import { coreResources } from '../kube/resource.js';
import { leaseSchema, type Lease } from '../leader/lease.js';
import type { Clock } from '../queue/clock.js';
import { ObjectLockError } from './errors.js';
import { lockOperationAnnotation, type LockOwner } from './lock-lease.js';
import { ObjectLock } from './object-lock.js';

const owner: LockOwner = { apiVersion: 'v1', kind: 'ConfigMap', name: 'ensemble', uid: 'uid-1' };
const leaseName = 'ensemble-lock';
const t0 = Date.parse('2026-01-01T00:00:00Z');
const lease30s = (operation: string): { leaseDurationSeconds: number; operation: string } => ({ leaseDurationSeconds: 30, operation });

/** The one Lease, stored like the apiserver does: creates conflict when it exists, updates need its resourceVersion. */
class LeaseEndpoint implements Pick<KubeClient, 'request'> {
  lease: Lease | undefined;
  writes = 0;
  /** Runs once, between the lock's next read and its write: another writer winning the race. */
  beforeNextWrite: (() => void) | undefined;
  private version = 0;

  request(verb: Verb, path: string, options: RequestOptions = {}): Promise<unknown> {
    const fail = (code: number): Promise<never> => Promise.reject(new KubeApiError(code, 'Test', verb, path, 'refused'));
    if (verb === 'GET') return this.lease === undefined ? fail(404) : Promise.resolve(structuredClone(this.lease));
    const interfere = this.beforeNextWrite;
    this.beforeNextWrite = undefined;
    interfere?.();
    this.writes++;
    const body = leaseSchema.parse(options.body);
    if (verb === 'POST' && this.lease === undefined) return Promise.resolve(this.store(body));
    if (verb === 'PUT' && body.metadata.resourceVersion === this.lease?.metadata.resourceVersion) return Promise.resolve(this.store(body));
    return fail(409);
  }

  /** Someone else writes `holder` into the Lease directly. */
  overwrite(holder: string, renewTime: string): void {
    this.store({ metadata: { name: leaseName, namespace: 'ns' }, spec: { holderIdentity: holder, leaseDurationSeconds: 30, renewTime } });
  }

  private store(body: Lease): Lease {
    this.lease = { ...body, metadata: { ...body.metadata, resourceVersion: String(++this.version) } };
    return structuredClone(this.lease);
  }
}

/** A clock the test moves by hand; the lock's retry pause runs at once. */
class ManualClock implements Clock {
  constructor(public time: number) {}
  now(): number {
    return this.time;
  }
  setTimeout(callback: () => void): ReturnType<typeof setTimeout> {
    return setTimeout(callback, 0);
  }
  clearTimeout(handle: ReturnType<typeof setTimeout>): void {
    clearTimeout(handle);
  }
  sleep(): Promise<void> {
    return Promise.resolve();
  }
}

function setup(): { api: LeaseEndpoint; clock: ManualClock; lock: () => ObjectLock } {
  const api = new LeaseEndpoint();
  const clock = new ManualClock(t0);
  // A new ObjectLock per call stands for a new process: nothing is remembered between calls.
  const lock = (): ObjectLock => new ObjectLock({ client: api, namespace: 'ns', owner, leaseName, logger: pino({ level: 'silent' }), clock });
  return { api, clock, lock };
}

describe('ObjectLock', () => {
  it('creates the Lease on first acquire, under the name given, owned by the object and annotated with the operation', async () => {
    const { api, lock } = setup();
    expect(await lock().tryAcquire('scale/a', lease30s('scale 3 -> 5'))).toEqual({ held: true });
    expect(api.lease?.metadata).toMatchObject({ name: leaseName, namespace: 'ns' });
    expect(api.lease?.metadata.ownerReferences).toEqual([{ apiVersion: 'v1', kind: 'ConfigMap', name: 'ensemble', uid: 'uid-1' }]);
    expect(api.lease?.metadata.annotations).toEqual({ [lockOperationAnnotation]: 'scale 3 -> 5' });
    expect(api.lease?.spec).toMatchObject({ holderIdentity: 'scale/a', leaseDurationSeconds: 30, renewTime: '2026-01-01T00:00:00.000000Z' });
  });

  it('locks an object by its resource and metadata: the Lease beside it, owned by that very object', async () => {
    const { api, clock } = setup();
    const configMap = { metadata: { name: 'ensemble', namespace: 'ns', uid: 'uid-1' } };
    const lock = ObjectLock.on(coreResources.configMap, configMap, leaseName, { client: api, logger: pino({ level: 'silent' }), clock });
    expect(await lock.tryAcquire('scale/a', lease30s('scale 3 -> 5'))).toEqual({ held: true });
    expect(api.lease?.metadata).toMatchObject({ name: leaseName, namespace: 'ns', ownerReferences: [owner] });
  });

  it('reports another operation as busy, with its holder, operation, start and expiry', async () => {
    const { clock, lock } = setup();
    await lock().tryAcquire('scale/a', lease30s('scale 3 -> 5'));
    clock.time += 10_000;
    expect(await lock().tryAcquire('rolling/b', lease30s('restart'))).toEqual({
      held: false,
      holder: 'scale/a',
      operation: 'scale 3 -> 5',
      since: new Date(t0),
      expiresAt: new Date(t0 + 30_000),
    });
  });

  it('lets the same operation hold it again at once after a restart, keeping its acquire time', async () => {
    const { api, clock, lock } = setup();
    await lock().tryAcquire('scale/a', lease30s('scale 3 -> 5'));
    clock.time += 5_000;
    expect(await lock().tryAcquire('scale/a', lease30s('scale 3 -> 5: step 2'))).toEqual({ held: true });
    expect(api.lease?.spec).toMatchObject({
      acquireTime: '2026-01-01T00:00:00.000000Z',
      renewTime: '2026-01-01T00:00:05.000000Z',
      leaseTransitions: 0,
    });
    expect(api.lease?.metadata.annotations?.[lockOperationAnnotation]).toBe('scale 3 -> 5: step 2');
  });

  it('lets another operation take over only once the holder stopped renewing for the lease duration', async () => {
    const { api, clock, lock } = setup();
    await lock().tryAcquire('scale/a', lease30s('scale'));
    clock.time += 20_000;
    expect(await lock().renew('scale/a')).toBe(true);
    clock.time += 29_000;
    expect((await lock().tryAcquire('rolling/b', lease30s('restart'))).held).toBe(false);
    clock.time += 1_000;
    expect(await lock().tryAcquire('rolling/b', lease30s('restart'))).toEqual({ held: true });
    expect(api.lease?.spec).toMatchObject({ holderIdentity: 'rolling/b', leaseTransitions: 1 });
    expect(await lock().renew('scale/a')).toBe(false);
  });

  it('hands the lock over at once on release, and only its holder can release it', async () => {
    const { api, lock } = setup();
    await lock().tryAcquire('scale/a', lease30s('scale'));
    expect(await lock().release('rolling/b')).toBe(false);
    expect(api.lease?.spec?.holderIdentity).toBe('scale/a');
    expect(await lock().release('scale/a')).toBe(true);
    expect(await lock().inspect()).toEqual({ kind: 'free' });
    expect(api.lease?.metadata.annotations).toEqual({});
    expect(await lock().tryAcquire('rolling/b', lease30s('restart'))).toEqual({ held: true });
    expect(await lock().release('scale/a')).toBe(false);
  });

  it('reports busy when another operation wins the race between its read and its write', async () => {
    const { api, lock } = setup();
    api.beforeNextWrite = () => api.overwrite('rolling/b', '2026-01-01T00:00:00.000000Z');
    expect(await lock().tryAcquire('scale/a', lease30s('scale'))).toMatchObject({ held: false, holder: 'rolling/b' });
    expect(api.lease?.spec?.holderIdentity).toBe('rolling/b');
  });

  it('retries a lost race once and fails with ObjectLockError when it loses again', async () => {
    const { api, lock } = setup();
    await lock().tryAcquire('scale/a', lease30s('scale'));
    const touch = (): void => api.overwrite('scale/a', '2026-01-01T00:00:00.000000Z');
    api.beforeNextWrite = () => {
      touch();
      api.beforeNextWrite = touch;
    };
    const writesBefore = api.writes;
    await expect(lock().renew('scale/a')).rejects.toBeInstanceOf(ObjectLockError);
    expect(api.writes - writesBefore).toBe(2);
  });

  it('inspects the holder and judges expiry on its own clock', async () => {
    const { clock, lock } = setup();
    await lock().tryAcquire('scale/a', lease30s('scale'));
    clock.time += 31_000;
    expect(await lock().inspect()).toEqual({
      kind: 'held',
      holder: 'scale/a',
      operation: 'scale',
      since: new Date(t0),
      expiresAt: new Date(t0 + 30_000),
      expired: true,
    });
  });

  it('adds the owner reference of a recreated object and keeps the old one for the collector', async () => {
    const { api, lock } = setup();
    await lock().tryAcquire('scale/a', lease30s('scale'));
    const recreated = new ObjectLock({ client: api, namespace: 'ns', owner: { ...owner, uid: 'uid-2' }, leaseName, logger: pino({ level: 'silent' }) });
    await recreated.renew('scale/a');
    expect(api.lease?.metadata.ownerReferences?.map((reference) => reference.uid)).toEqual(['uid-1', 'uid-2']);
  });
});
