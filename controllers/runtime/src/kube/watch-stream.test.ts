import { PassThrough } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { readWatchEvents, WATCH_IDLE_TIMEOUT_MS, WatchEnding } from './watch-stream.js';

function startWatch(): { body: PassThrough; events: string[]; ends: unknown[]; request: AbortController } {
  const body = new PassThrough();
  const events: string[] = [];
  const ends: unknown[] = [];
  const request = new AbortController();
  const ending = new WatchEnding(request, (error) => ends.push(error));
  readWatchEvents(body, (type) => events.push(type), ending);
  ending.arm();
  return { body, events, ends, request };
}

/** Writes `text` and lets the stream deliver it. */
async function send(body: PassThrough, text: string): Promise<void> {
  body.write(text);
  await vi.advanceTimersByTimeAsync(0);
}

describe('readWatchEvents', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('hands on each event, a line split across chunks included', async () => {
    const { body, events, ends } = startWatch();
    await send(body, '{"type":"ADDED","object":{}}\n{"type":"MODI');
    await send(body, 'FIED","object":{}}\n');
    expect(events).toStrictEqual(['ADDED', 'MODIFIED']);
    expect(ends).toStrictEqual([]);
  });

  it('ends a watch silent for the idle timeout, counted from the last chunk, with a TimeoutError', async () => {
    const { body, ends, request } = startWatch();
    await vi.advanceTimersByTimeAsync(WATCH_IDLE_TIMEOUT_MS - 1_000);
    await send(body, '{"type":"BOOKMARK","object":{}}\n');
    await vi.advanceTimersByTimeAsync(WATCH_IDLE_TIMEOUT_MS - 1_000);
    expect(ends).toStrictEqual([]);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(ends).toHaveLength(1);
    expect(ends[0]).toMatchObject({ name: 'TimeoutError' });
    expect(request.signal.aborted).toBe(true);
  });

  it('ends once, without an error, when the caller aborts, and leaves no idle timer behind', async () => {
    const { ends, request } = startWatch();
    request.abort();
    await vi.advanceTimersByTimeAsync(WATCH_IDLE_TIMEOUT_MS * 2);
    expect(ends).toStrictEqual([null]);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('ends with an error on a line that is not a watch event', async () => {
    const { body, events, ends } = startWatch();
    await send(body, 'not json\n{"type":"ADDED","object":{}}\n');
    expect(events).toStrictEqual([]);
    expect(ends).toHaveLength(1);
    expect(String(ends[0])).toContain('not a watch event');
  });
});
