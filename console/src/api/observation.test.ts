// Asking the workload controller never fails the info: no NATS, no reply in time or a malformed one is a reason.
import { parseResource, ZOOKEEPER_WORKLOAD, zookeeperWorkloadSchema } from '@zk-oam/apis';
import type { EventBus, RequestFailure } from '@zk-oam/runtime';
import { describe, expect, it } from 'vitest';
import { askObservation, OBSERVATION_TIMEOUT_MS } from './observation.js';

const workload = parseResource(
  zookeeperWorkloadSchema,
  { apiVersion: ZOOKEEPER_WORKLOAD.apiVersion, kind: 'ZookeeperWorkload', metadata: { name: 'zk.main', namespace: 'team-a', uid: 'uid-1' }, spec: {} },
  'workload',
);

type Answer = { reply: unknown } | { failure: RequestFailure; message: string };

/** A bus whose request gives `answer` (a reply is parsed with the asker's schema, as the bus does), remembering what was asked. */
function busAnswering(answer: Answer): Pick<EventBus, 'request'> & { asked: unknown[] } {
  const asked: unknown[] = [];
  return {
    asked,
    request: (options) => {
      asked.push({ subject: options.subject, body: options.body, timeoutMs: options.timeoutMs });
      return Promise.resolve('reply' in answer ? { ok: true, reply: options.reply.parse(answer.reply) } : { ok: false, ...answer });
    },
  };
}

describe('askObservation', () => {
  it("asks on the workload's subject, naming it, and waits about a second", async () => {
    const reply = { workload: { namespace: 'team-a', name: 'zk.main' }, observedAt: '2026-11-25T21:00:00.000Z', members: [] };
    const bus = busAnswering({ reply });
    expect(await askObservation(bus, workload)).toStrictEqual({ ok: true, reply });
    expect(bus.asked).toStrictEqual([{ subject: 'zkoam.v1.observations.team-a.zk_main', body: { namespace: 'team-a', name: 'zk.main' }, timeoutMs: OBSERVATION_TIMEOUT_MS }]);
    expect(OBSERVATION_TIMEOUT_MS).toBe(1_000);
  });

  it('says why without NATS', async () => {
    expect(await askObservation(undefined, workload)).toStrictEqual({ ok: false, reason: 'the console has no NATS (NATS_URL is unset)' });
  });

  it('says why when nothing answers in time', async () => {
    const answer = await askObservation(busAnswering({ failure: 'timeout', message: 'no reply within 1000 ms' }), workload);
    expect(answer).toMatchObject({ ok: false, reason: expect.stringMatching(/^the workload controller did not answer within 1000 ms/) });
  });

  it('says the answer is malformed, and how', async () => {
    const answer = await askObservation(busAnswering({ failure: 'invalid_reply', message: 'the reply is not JSON' }), workload);
    expect(answer).toStrictEqual({ ok: false, reason: "the workload controller's answer is malformed: the reply is not JSON" });
  });
});
