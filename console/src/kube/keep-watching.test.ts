import { afterEach, describe, expect, it, vi } from 'vitest';
import { endedQuietly, keepWatching } from './keep-watching.js';

/** A fake of KubeClient.watch (named so): records each watch and lets the test send its events and end it. */
class FakeWatcher {
  readonly watches: { query: Record<string, unknown>; onEvent: (type: string, object: unknown) => void; onDone: (error: unknown) => void; aborted: boolean }[] = [];

  watch(_path: string, query: Record<string, unknown>, onEvent: (type: string, object: unknown) => void, onDone: (error: unknown) => void): Promise<AbortController> {
    const controller = new AbortController();
    const entry = { query, onEvent, onDone, aborted: false };
    controller.signal.addEventListener('abort', () => (entry.aborted = true));
    this.watches.push(entry);
    return Promise.resolve(controller);
  }
}

const object = (resourceVersion: string) => ({ metadata: { resourceVersion } });
const settle = () => new Promise((resolve) => setTimeout(resolve, 5));
const timeout = () => Object.assign(new Error('The operation was aborted due to timeout'), { name: 'TimeoutError' });

describe('keepWatching', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('watches again from the last version seen, bookmarks included, when a watch ends quietly', async () => {
    const fake = new FakeWatcher();
    const seen: string[] = [];
    const ends: unknown[] = [];
    keepWatching(fake, '/x', { fieldSelector: 'metadata.name=zk', resourceVersion: '10', rewatchDelayMs: 0 }, { onEvent: (type) => seen.push(type), onEnd: (error) => ends.push(error) });
    await settle();
    expect(fake.watches[0]?.query).toStrictEqual({ allowWatchBookmarks: true, fieldSelector: 'metadata.name=zk', resourceVersion: '10' });
    fake.watches[0]?.onEvent('MODIFIED', object('11'));
    fake.watches[0]?.onEvent('BOOKMARK', object('15'));
    fake.watches[0]?.onDone(timeout());
    await settle();
    expect(fake.watches[1]?.query['resourceVersion']).toBe('15');
    fake.watches[1]?.onDone(null);
    await settle();
    expect(fake.watches).toHaveLength(3);
    expect([seen, ends]).toStrictEqual([['MODIFIED'], []]);
  });

  it('ends once on a failure, and watches no more after stop()', async () => {
    const fake = new FakeWatcher();
    const ends: unknown[] = [];
    const refused = Object.assign(new Error('Forbidden'), { statusCode: 403 });
    keepWatching(fake, '/x', { rewatchDelayMs: 0 }, { onEvent: () => undefined, onEnd: (error) => ends.push(error) });
    await settle();
    expect(fake.watches[0]?.query).toStrictEqual({ allowWatchBookmarks: true });
    fake.watches[0]?.onDone(refused);
    fake.watches[0]?.onDone(refused);
    await settle();
    expect([ends, fake.watches.length]).toStrictEqual([[refused], 1]);

    const gone = new FakeWatcher();
    const status = { kind: 'Status', code: 410, reason: 'Expired' };
    keepWatching(gone, '/x', { fieldSelector: 'f', resourceVersion: '1', rewatchDelayMs: 0 }, { onEvent: () => ends.push('event'), onEnd: (error) => ends.push(error) });
    await settle();
    gone.watches[0]?.onEvent('ERROR', status);
    gone.watches[0]?.onDone(null);
    await settle();
    expect([ends.slice(1), gone.watches.length, gone.watches[0]?.aborted]).toStrictEqual([[status], 1, true]);
    ends.length = 1;

    const other = new FakeWatcher();
    const watching = keepWatching(other, '/x', { fieldSelector: 'f', rewatchDelayMs: 0 }, { onEvent: () => undefined, onEnd: (error) => ends.push(error) });
    await settle();
    watching.stop();
    other.watches[0]?.onDone(null);
    await settle();
    expect([other.watches.length, other.watches[0]?.aborted, ends.length]).toStrictEqual([1, true, 1]);
  });

  it('watches no more when stopped during the pause before watching again', async () => {
    // Fake time carries the pause to its end, where a watch not stopped would start again: a positive point to look at.
    vi.useFakeTimers();
    const fake = new FakeWatcher();
    const watching = keepWatching(fake, '/x', { rewatchDelayMs: 20 }, { onEvent: () => undefined, onEnd: () => undefined });
    await vi.advanceTimersByTimeAsync(0);
    fake.watches[0]?.onDone(null);
    watching.stop();
    await vi.advanceTimersByTimeAsync(40);
    expect(fake.watches).toHaveLength(1);
  });

  it('tells a quiet end (closed, idle timeout) from a failure', () => {
    expect([endedQuietly(null), endedQuietly(undefined), endedQuietly(timeout())]).toStrictEqual([true, true, true]);
    expect(endedQuietly(new Error('Forbidden'))).toBe(false);
  });
});
