// Discovery against a fake apiserver that counts its questions and answers when the test lets it: one question for
// callers at the same time, then the answer from memory, asked again every TTL in the background, a change announced.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiDiscovery } from './api-discovery.js';
import { prometheusRuleResource, serviceMonitorResource } from './resources.js';
import { gatedClient } from './test-gated-client.js';

const TTL_MS = 60_000;
const SERVED = {
  '/apis': { groups: [{ name: 'monitoring.coreos.com', versions: [{ groupVersion: 'monitoring.coreos.com/v1' }] }] },
  '/apis/monitoring.coreos.com/v1': { resources: [{ name: 'servicemonitors' }, { name: 'prometheusrules' }] },
};
const NOT_SERVED = { '/apis': { groups: [] } };

/** Discovery on an apiserver whose answers are `cluster()` at the time each request is let through. */
function discovery(cluster: () => Record<string, unknown>) {
  const apiserver = gatedClient((_verb, path) => {
    const body = cluster()[path];
    if (body === undefined) throw new Error(`no answer for ${path}`);
    return body;
  });
  const changes = { count: 0 };
  const apis = new ApiDiscovery({
    client: apiserver.client,
    resources: [serviceMonitorResource, prometheusRuleResource],
    ttlMs: TTL_MS,
    onChange: () => (changes.count += 1),
  });
  return { apis, asked: apiserver.requests, answer: apiserver.answer, changes };
}

/** Asks once and lets the answer through: discovery then holds `cluster()`'s answer. */
async function known(cluster: () => Record<string, unknown>) {
  const found = discovery(cluster);
  const first = found.apis.served();
  await found.answer();
  await first;
  return found;
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
});

afterEach(() => {
  vi.useRealTimers();
});

describe('ApiDiscovery', () => {
  it('asks once for callers at the same time, then answers from memory', async () => {
    const { apis, asked, answer } = discovery(() => SERVED);
    const first = [apis.served(), apis.served(), apis.served()];
    await answer();
    await expect(Promise.all(first)).resolves.toEqual([true, true, true]);
    expect(asked).toEqual(['GET /apis', 'GET /apis/monitoring.coreos.com/v1']);
    await expect(apis.served()).resolves.toBe(true);
    expect(asked).toHaveLength(2);
    apis.stop();
  });

  it('asks again every TTL in the background, and announces a changed answer once', async () => {
    let cluster: Record<string, unknown> = SERVED;
    const { apis, asked, answer, changes } = await known(() => cluster);
    cluster = NOT_SERVED;
    vi.advanceTimersByTime(TTL_MS - 1);
    expect(asked).toHaveLength(2);
    vi.advanceTimersByTime(1);
    expect(asked).toEqual(['GET /apis', 'GET /apis/monitoring.coreos.com/v1', 'GET /apis']);
    await expect(apis.served()).resolves.toBe(true);
    await answer();
    await expect(apis.served()).resolves.toBe(false);
    expect(changes.count).toBe(1);
    vi.advanceTimersByTime(TTL_MS);
    await answer();
    expect(asked).toHaveLength(4);
    expect(changes.count).toBe(1);
    apis.stop();
  });

  it('keeps the last answer when asking again fails, and asks again a TTL later', async () => {
    let cluster: Record<string, unknown> = SERVED;
    const { apis, asked, answer, changes } = await known(() => cluster);
    cluster = {};
    vi.advanceTimersByTime(TTL_MS);
    await answer();
    await expect(apis.served()).resolves.toBe(true);
    cluster = NOT_SERVED;
    vi.advanceTimersByTime(TTL_MS);
    await answer();
    await expect(apis.served()).resolves.toBe(false);
    expect(asked).toEqual(['GET /apis', 'GET /apis/monitoring.coreos.com/v1', 'GET /apis', 'GET /apis']);
    expect(changes.count).toBe(1);
    apis.stop();
  });

  it("leaves a first question's failure to the caller, who asks again; stopped, it asks no more", async () => {
    let cluster: Record<string, unknown> = {};
    const { apis, asked, answer } = discovery(() => cluster);
    const failing = expect(apis.served()).rejects.toThrow('no answer for /apis');
    await answer();
    await failing;
    vi.advanceTimersByTime(TTL_MS);
    expect(asked).toHaveLength(1);
    cluster = NOT_SERVED;
    const second = apis.served();
    await answer();
    await expect(second).resolves.toBe(false);
    apis.stop();
    vi.advanceTimersByTime(2 * TTL_MS);
    expect(asked).toHaveLength(2);
  });
});
