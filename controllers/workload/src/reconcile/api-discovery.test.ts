// Discovery against a fake apiserver that counts its questions and answers when the test lets it: one question for
// callers at the same time, the last answer at once after the TTL while the next is asked in the background.
import { describe, expect, it } from 'vitest';
import { ApiDiscovery } from './api-discovery.js';
import { prometheusRuleResource, serviceMonitorResource } from './resources.js';
import { gatedClient } from './test-gated-client.js';

const SERVED = {
  '/apis': { groups: [{ name: 'monitoring.coreos.com', versions: [{ groupVersion: 'monitoring.coreos.com/v1' }] }] },
  '/apis/monitoring.coreos.com/v1': { resources: [{ name: 'servicemonitors' }, { name: 'prometheusrules' }] },
};
const NOT_SERVED = { '/apis': { groups: [] } };

/** Discovery on an apiserver whose answers are `cluster()` at the time each request is let through. */
function discovery(cluster: () => Record<string, unknown>, clock: { at: number }) {
  const apiserver = gatedClient((_verb, path) => {
    const body = cluster()[path];
    if (body === undefined) throw new Error(`no answer for ${path}`);
    return body;
  });
  const apis = new ApiDiscovery({ client: apiserver.client, resources: [serviceMonitorResource, prometheusRuleResource], ttlMs: 60_000, now: () => clock.at });
  return { apis, asked: apiserver.requests, answer: apiserver.answer };
}

/** Asks once and lets the answer through: discovery then holds `cluster()`'s answer, taken at `clock.at`. */
async function known(cluster: () => Record<string, unknown>, clock: { at: number }) {
  const found = discovery(cluster, clock);
  const first = found.apis.served();
  await found.answer();
  await first;
  return found;
}

describe('ApiDiscovery', () => {
  it('asks once for callers at the same time, then answers from memory', async () => {
    const { apis, asked, answer } = discovery(() => SERVED, { at: 0 });
    const first = [apis.served(), apis.served(), apis.served()];
    await answer();
    await expect(Promise.all(first)).resolves.toEqual([true, true, true]);
    expect(asked).toEqual(['GET /apis', 'GET /apis/monitoring.coreos.com/v1']);
    await expect(apis.served()).resolves.toBe(true);
    expect(asked).toHaveLength(2);
  });

  it('answers with the last answer once it is older than the TTL, and the next call gets the new one', async () => {
    let cluster: Record<string, unknown> = SERVED;
    const clock = { at: 0 };
    const { apis, asked, answer } = await known(() => cluster, clock);
    cluster = NOT_SERVED;
    clock.at = 60_000;
    await expect(apis.served()).resolves.toBe(true);
    expect(asked).toEqual(['GET /apis', 'GET /apis/monitoring.coreos.com/v1', 'GET /apis']);
    await answer();
    await expect(apis.served()).resolves.toBe(false);
    expect(asked).toHaveLength(3);
  });

  it("keeps the last answer when asking again fails, and asks again at the next call; a first question's failure is the caller's", async () => {
    let cluster: Record<string, unknown> = SERVED;
    const clock = { at: 0 };
    const { apis, asked, answer } = await known(() => cluster, clock);
    cluster = {};
    clock.at = 60_000;
    await expect(apis.served()).resolves.toBe(true);
    await answer();
    await expect(apis.served()).resolves.toBe(true);
    expect(asked).toEqual(['GET /apis', 'GET /apis/monitoring.coreos.com/v1', 'GET /apis', 'GET /apis']);

    const fresh = discovery(() => ({}), { at: 0 });
    const failing = expect(fresh.apis.served()).rejects.toThrow('no answer for /apis');
    await fresh.answer();
    await failing;
  });
});
