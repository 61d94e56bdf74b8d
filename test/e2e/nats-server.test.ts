// The bed's NATS server: JetStream works with its credentials, is refused without them, and keeps state across a restart.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { AuthorizationError } from '@nats-io/nats-core';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNats, type NatsServer } from '../src/bed/nats.js';

describe('the bed NATS server', () => {
  let dir: string;
  let nats: NatsServer;
  const connections: NatsConnection[] = [];

  const connectAs = async (user?: string, pass?: string): Promise<NatsConnection> => {
    const connection = await connect({ servers: nats.url, user, pass, maxReconnectAttempts: 0, reconnect: false });
    connections.push(connection);
    return connection;
  };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'zkoam-nats-server-'));
    nats = await startNats({ dir });
  });

  afterAll(async () => {
    await Promise.all(connections.map((connection) => connection.close()));
    await nats?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('listens on loopback only', () => {
    expect(nats.url).toMatch(/^nats:\/\/127\.0\.0\.1:\d+$/);
  });

  it('stores and delivers a JetStream message for the generated user', async () => {
    const connection = await connectAs(nats.user, nats.password);
    const jsm = await jetstreamManager(connection);
    await jsm.streams.add({ name: 'PROBE', subjects: ['probe.>'] });
    const ack = await jetstream(connection).publish('probe.one', JSON.stringify({ n: 1 }));
    expect(ack).toMatchObject({ stream: 'PROBE', seq: 1 });

    await jsm.consumers.add('PROBE', { durable_name: 'reader', ack_policy: 'explicit' });
    const consumer = await jetstream(connection).consumers.get('PROBE', 'reader');
    const message = await consumer.next({ expires: 5_000 });
    expect(message?.json()).toEqual({ n: 1 });
    message?.ack();
  });

  it('refuses a client without credentials with an authorization error', async () => {
    await expect(connectAs()).rejects.toBeInstanceOf(AuthorizationError);
  });

  it('refuses a client with a wrong password with an authorization error', async () => {
    await expect(connectAs(nats.user, `${nats.password}x`)).rejects.toBeInstanceOf(AuthorizationError);
  });

  it('comes back on the same URL with its JetStream state after stop and start', async () => {
    await nats.stop();
    await expect(connectAs(nats.user, nats.password)).rejects.toThrow();
    await nats.start();

    const connection = await connectAs(nats.user, nats.password);
    const info = await (await jetstreamManager(connection)).streams.info('PROBE');
    expect(info.state.messages).toBe(1);
  });

  it('writes the server log into the state directory', async () => {
    expect(await readFile(join(dir, 'nats.log'), 'utf8')).toContain('Server is ready');
  });
});
