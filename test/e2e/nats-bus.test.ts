// The event bus against a real nats-server: delivery, de-duplication, invalid payloads, following (an ordered consumer),
// and NATS going away and back.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jetstream } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { createEvent, zkEventStream, type ZkEvent } from '@zk-oam/apis';
import { connectEventBus, type EventBus } from '@zk-oam/runtime';
import { pino } from 'pino';
import { Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNats, type NatsServer } from '../src/bed/nats.js';
import { LOCAL_POLL_INTERVAL_MS, waitFor } from '../src/wait-for.js';

const log = pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' });
const subject = {
  apiVersion: 'workload.zookeeper.zkoam.dev/v1alpha1',
  kind: 'ZookeeperWorkload',
  namespace: 'bus-test',
  name: 'zk',
};
const readiness = (readyReplicas: number): ZkEvent =>
  createEvent({ type: 'ReadinessChanged', source: 'bus-test', subject, data: { ready: readyReplicas === 3, readyReplicas, replicas: 3 } });

/** Waits until the bus's zkoam_nats_connected gauge reads `value` (1 connected, 0 not). */
async function natsConnected(registry: Registry, value: 0 | 1, timeoutMs: number): Promise<void> {
  await waitFor(`zkoam_nats_connected ${String(value)}`, () => metricValue(registry, 'zkoam_nats_connected'), (seen) => seen === value, timeoutMs, LOCAL_POLL_INTERVAL_MS);
}

async function metricValue(registry: Registry, name: string, labels: Record<string, string> = {}): Promise<number> {
  const metric = registry.getSingleMetric(name);
  if (metric === undefined) return 0;
  const { values } = await metric.get();
  const matching = values.filter((sample) => Object.entries(labels).every(([key, value]) => sample.labels[key] === value));
  return matching.reduce((sum, sample) => sum + sample.value, 0);
}

describe('the NATS event bus', () => {
  let dir: string;
  let nats: NatsServer;
  let raw: NatsConnection;
  const registry = new Registry();
  const buses: EventBus[] = [];
  const received: ZkEvent[] = [];
  const receivedIds = (): string[] => received.map((event) => event.id);

  const openBus = (name: string, busRegistry: Registry = registry): EventBus => {
    const bus = connectEventBus({
      servers: nats.url,
      user: nats.user,
      password: nats.password,
      name,
      stream: { name: zkEventStream.name, subjects: [...zkEventStream.subjects], maxAgeMs: 600_000, duplicateWindowMs: 120_000 },
      registry: busRegistry,
      log: log.child({ bus: name }),
      // Delivery is what is tested, not a request's speed: beds beside this file can load the machine far past its cores
      // (the first event not received within 20 s under a load of 15-28 with 1 s requests, 2026-12-01).
      requestTimeoutMs: 10_000,
    });
    buses.push(bus);
    return bus;
  };

  const waitForReceived = async (event: ZkEvent, timeout = 20_000): Promise<void> => {
    await waitFor(`event ${event.id} received`, () => Promise.resolve(receivedIds()), (ids) => ids.includes(event.id), timeout, LOCAL_POLL_INTERVAL_MS);
  };

  let bus: EventBus;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'zkoam-nats-bus-'));
    nats = await startNats({ dir, log });
    raw = await connect({ servers: nats.url, user: nats.user, pass: nats.password, maxReconnectAttempts: -1, reconnectTimeWait: 500 });
    bus = openBus('bus-test');
    bus.subscribe({ durable: 'bus-test', deliverPolicy: 'all', handler: (event) => void received.push(event) });
    await natsConnected(registry, 1, 20_000);
  });

  afterAll(async () => {
    await Promise.all(buses.map((each) => each.close()));
    await raw?.close();
    await nats?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('delivers a published event to a durable subscriber and counts both sides', async () => {
    const event = readiness(1);
    await bus.publish(event);
    await waitForReceived(event);

    expect(received.find((each) => each.id === event.id)).toEqual(event);
    expect(await metricValue(registry, 'zkoam_nats_connected')).toBe(1);
    expect(await metricValue(registry, 'zkoam_events_published_total', { type: 'ReadinessChanged', result: 'ok' })).toBe(1);
    expect(await metricValue(registry, 'zkoam_events_received_total', { type: 'ReadinessChanged' })).toBe(1);
  });

  it('delivers an event published twice with the same id only once', async () => {
    const event = readiness(2);
    await bus.publish(event);
    await bus.publish(event);
    const marker = readiness(3);
    await bus.publish(marker);
    await waitForReceived(marker);

    expect(receivedIds().filter((id) => id === event.id)).toHaveLength(1);
    expect(await metricValue(registry, 'zkoam_events_published_total', { result: 'duplicate' })).toBe(1);
  });

  it('drops and counts malformed payloads, and the next valid event still arrives', async () => {
    const js = jetstream(raw);
    const valid = readiness(1);
    await js.publish('zk.bus-test.zk.ReadinessChanged', 'this is not JSON');
    await js.publish('zk.bus-test.zk.ReadinessChanged', JSON.stringify({ hello: 'world' }));
    await js.publish('zk.bus-test.zk.Exploded', JSON.stringify({ ...valid, id: crypto.randomUUID(), type: 'Exploded' }));
    await js.publish('zk.bus-test.zk.ReadinessChanged', JSON.stringify({ ...valid, id: crypto.randomUUID(), data: { ready: 'yes' } }));
    await bus.publish(valid);
    await waitForReceived(valid);

    for (const reason of ['not_json', 'invalid_envelope', 'unknown_type', 'invalid_data']) {
      expect(await metricValue(registry, 'zkoam_events_invalid_total', { reason }), reason).toBe(1);
    }
    expect(await metricValue(registry, 'zkoam_events_received_total', { type: 'invalid' })).toBe(4);
    const consumer = await jetstream(raw).consumers.get(zkEventStream.name, 'bus-test');
    await waitFor('no delivery pending an ack', async () => (await consumer.info()).num_ack_pending, (pending) => pending === 0, 10_000, LOCAL_POLL_INTERVAL_MS);
  });

  it('redelivers an event whose handler threw, and counts the failure', async () => {
    const flakySubject = { ...subject, name: 'flaky' };
    const attempts = new Map<string, number>();
    const handled: string[] = [];
    bus.subscribe({
      durable: 'flaky-handler',
      deliverPolicy: 'all',
      filterSubjects: ['zk.bus-test.flaky.>'],
      handler: (event) => {
        const attempt = (attempts.get(event.id) ?? 0) + 1;
        attempts.set(event.id, attempt);
        if (attempt === 1) throw new Error('first attempt fails');
        handled.push(event.id);
      },
    });
    const event = createEvent({ type: 'LeaderChanged', source: 'bus-test', subject: flakySubject, data: { to: 'zk-1' } });
    await bus.publish(event);

    await waitFor('the event handled once', () => Promise.resolve(handled), (ids) => ids.length > 0, 20_000, LOCAL_POLL_INTERVAL_MS);
    expect(handled).toEqual([event.id]);
    expect(attempts.get(event.id)).toBe(2);
    expect(await metricValue(registry, 'zkoam_events_handler_errors_total', { type: 'LeaderChanged' })).toBe(1);
  });

  it('follows events without a durable consumer: those stored since a time, then live ones, each once across a NATS restart', async () => {
    const followed = (to: string): ZkEvent => createEvent({ type: 'LeaderChanged', source: 'bus-test', subject: { ...subject, name: 'followed' }, data: { to } });
    const since = new Date();
    const stored = followed('zk-0');
    await bus.publish(stored);
    await bus.publish(readiness(1));
    const seen: string[] = [];
    const following = bus.follow({ filterSubject: 'zk.bus-test.followed.*', since, handler: (event) => void seen.push(event.id) });
    try {
      await waitFor('the stored event followed', () => Promise.resolve(seen), (ids) => ids.length > 0, 20_000, LOCAL_POLL_INTERVAL_MS);
      expect(seen).toEqual([stored.id]);
      await jetstream(raw).publish('zk.bus-test.followed.LeaderChanged', 'this is not JSON either');
      const live = followed('zk-1');
      await bus.publish(live);
      await waitFor('the live event followed', () => Promise.resolve(seen), (ids) => ids.length > 1, 20_000, LOCAL_POLL_INTERVAL_MS);
      expect(seen).toEqual([stored.id, live.id]);

      await nats.stop();
      await nats.start();
      await natsConnected(registry, 1, 20_000);
      // Published again until stored: JetStream de-duplicates the id, so it is one event however often it is sent.
      const afterRestart = followed('zk-2');
      await waitFor('an event published after the restart followed', () => bus.publish(afterRestart).then(() => seen), (ids) => ids.includes(afterRestart.id), 60_000, 1_000);
      expect(seen).toEqual([stored.id, live.id, afterRestart.id]);
    } finally {
      await following.close();
    }
  });

  it('fails publishes fast while NATS is down, reconnects, and the consumer resumes by itself', async () => {
    const before = await metricValue(registry, 'zkoam_events_publish_failures_total');
    await nats.stop();
    await natsConnected(registry, 0, 10_000);

    const startedAt = Date.now();
    await bus.publish(readiness(0));
    console.info(`a publish while NATS is down returned after ${String(Date.now() - startedAt)} ms`);
    expect(await metricValue(registry, 'zkoam_events_publish_failures_total')).toBe(before + 1);
    expect(await metricValue(registry, 'zkoam_events_published_total', { result: 'failed' })).toBe(before + 1);

    const lateRegistry = new Registry();
    const lateBus = openBus('late-starter', lateRegistry);
    await lateBus.publish(readiness(0));
    expect(await metricValue(lateRegistry, 'zkoam_events_publish_failures_total', { reason: 'not_connected' })).toBe(1);

    await nats.start();
    await natsConnected(registry, 1, 20_000);
    const afterRestart = readiness(3);
    await bus.publish(afterRestart);
    await waitForReceived(afterRestart, 60_000);

    await natsConnected(lateRegistry, 1, 30_000);
    const fromLateStarter = readiness(2);
    await lateBus.publish(fromLateStarter);
    await waitForReceived(fromLateStarter);
  });

  it('recreates the stream and consumer when NATS comes back without its JetStream state', async () => {
    await nats.stop();
    await rm(join(dir, 'jetstream'), { recursive: true, force: true });
    await nats.start();
    await natsConnected(registry, 1, 20_000);

    const afterWipe = readiness(1);
    await waitFor('an event published after the wipe received', () => bus.publish(afterWipe).then(() => receivedIds()), (ids) => ids.includes(afterWipe.id), 60_000, 1_000);
  });
});
