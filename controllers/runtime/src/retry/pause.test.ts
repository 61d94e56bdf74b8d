// The one abortable sleep: it waits its time, an abort ends it at once, and fake timers drive it.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { pause } from './pause.js';

describe('pause', () => {
  afterEach(() => vi.useRealTimers());

  it('returns at once when the signal aborts', async () => {
    const stop = new AbortController();
    const paused = pause(60_000, stop.signal);
    stop.abort();
    await expect(paused).resolves.toBeUndefined();
  });

  it('returns at once when the signal has already aborted', async () => {
    await expect(pause(60_000, AbortSignal.abort())).resolves.toBeUndefined();
  });

  it('waits its time without an abort, on the global timers that fake timers replace', async () => {
    vi.useFakeTimers();
    let ended = false;
    void pause(1_000, new AbortController().signal).then(() => (ended = true));
    await vi.advanceTimersByTimeAsync(999);
    expect(ended).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(ended).toBe(true);
  });

  it('leaves no timer behind when aborted', async () => {
    vi.useFakeTimers();
    const stop = new AbortController();
    const paused = pause(60_000, stop.signal);
    expect(vi.getTimerCount()).toBe(1);
    stop.abort();
    await paused;
    expect(vi.getTimerCount()).toBe(0);
  });
});
