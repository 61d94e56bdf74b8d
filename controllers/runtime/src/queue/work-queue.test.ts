// Work queue semantics: de-duplication, per-key serialization, backoff, requeue-after, shutdown.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { WorkQueue } from './work-queue.js';

describe('WorkQueue', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('hands out a key added several times only once', async () => {
    const queue = new WorkQueue({ name: 'test' });
    queue.add('ns/a');
    queue.add('ns/a');
    queue.add('ns/b');
    expect(queue.length).toBe(2);
    expect(await queue.get()).toBe('ns/a');
    expect(await queue.get()).toBe('ns/b');
  });

  it('hands a waiting worker a key added several times in one turn once, and the other keys to the next workers', async () => {
    const queue = new WorkQueue({ name: 'test' });
    const handed: (string | undefined)[] = [];
    for (let worker = 0; worker < 2; worker++) void queue.get().then((key) => handed.push(key));
    queue.add('ns/a');
    queue.add('ns/a');
    queue.add('ns/b');
    await vi.advanceTimersByTimeAsync(0);
    expect(handed).toEqual(['ns/a', 'ns/b']);
    queue.done('ns/a');
    queue.done('ns/b');
    expect(queue.length).toBe(0);
    expect(queue.inFlight).toBe(0);
  });

  it('does not hand out a key while it is processed, and hands it out again once done', async () => {
    const queue = new WorkQueue({ name: 'test' });
    queue.add('ns/a');
    const first = await queue.get();
    queue.add('ns/a');
    queue.add('ns/a');
    expect(queue.length).toBe(0);
    let second: string | undefined;
    void queue.get().then((key) => (second = key));
    await vi.advanceTimersByTimeAsync(10);
    expect(second).toBeUndefined();
    queue.done(first ?? '');
    await vi.advanceTimersByTimeAsync(0);
    expect(second).toBe('ns/a');
  });

  it('doubles the delay after each failure from 5 ms and restarts from 5 ms after forget', async () => {
    const queue = new WorkQueue({ name: 'test' });
    const delays: number[] = [];
    for (let failure = 0; failure < 4; failure++) {
      const before = Date.now();
      queue.addRateLimited('ns/a');
      const key = await waitForKey(queue);
      delays.push(Date.now() - before);
      queue.done(key);
    }
    expect(delays).toEqual([5, 10, 20, 40]);
    queue.forget('ns/a');
    const before = Date.now();
    queue.addRateLimited('ns/a');
    await waitForKey(queue);
    expect(Date.now() - before).toBe(5);
  });

  it('caps the backoff at the configured maximum', async () => {
    const queue = new WorkQueue({ name: 'test', backoff: { baseMs: 100, maxMs: 1000 } });
    for (let failure = 0; failure < 9; failure++) {
      queue.addRateLimited('ns/a');
      vi.advanceTimersByTime(1000);
      queue.done((await queue.get()) ?? '');
    }
    queue.addRateLimited('ns/a');
    expect(queue.failuresOf('ns/a')).toBe(10);
    vi.advanceTimersByTime(999);
    expect(queue.length).toBe(0);
    vi.advanceTimersByTime(1);
    expect(queue.length).toBe(1);
  });

  it('adds a key after the requested delay, keeping the earliest of two delays', () => {
    const queue = new WorkQueue({ name: 'test' });
    queue.addAfter('ns/a', 1000);
    queue.addAfter('ns/a', 300);
    queue.addAfter('ns/a', 5000);
    vi.advanceTimersByTime(299);
    expect(queue.length).toBe(0);
    vi.advanceTimersByTime(1);
    expect(queue.length).toBe(1);
    vi.advanceTimersByTime(10_000);
    expect(queue.length).toBe(1);
  });

  it('hands out nothing after shutdown and resolves drained once keys in flight are done', async () => {
    const queue = new WorkQueue({ name: 'test' });
    queue.add('ns/a');
    queue.add('ns/b');
    queue.addAfter('ns/c', 100);
    const inFlight = await queue.get();
    queue.shutDown();
    expect(await queue.get()).toBeUndefined();
    let drained = false;
    void queue.drained().then(() => (drained = true));
    await vi.advanceTimersByTimeAsync(1000);
    expect(drained).toBe(false);
    queue.done(inFlight ?? '');
    await vi.advanceTimersByTimeAsync(0);
    expect(drained).toBe(true);
    queue.add('ns/d');
    expect(queue.length).toBe(1);
  });

  it('wakes a waiting worker with undefined on shutdown', async () => {
    const queue = new WorkQueue({ name: 'test' });
    const waiting = queue.get();
    queue.shutDown();
    expect(await waiting).toBeUndefined();
  });
});

async function waitForKey(queue: WorkQueue): Promise<string> {
  const next = queue.get();
  let key: string | undefined;
  void next.then((k) => (key = k));
  for (let ms = 0; key === undefined && ms < 100_000; ms++) await vi.advanceTimersByTimeAsync(1);
  if (key === undefined) throw new Error('no key came out of the queue');
  return key;
}
