// Keeps one NATS connection alive for the bus: first connect retried in the background (a controller
// starts while NATS is down), client reconnects forever, a new connection if the client gives up.
import type { NatsConnection } from '@nats-io/nats-core';
import { connect, type NodeConnectionOptions } from '@nats-io/transport-node';
import type { Logger } from 'pino';
import { backoffDelayMs, reconnectBackoff } from '../retry/backoff.js';
import { pause } from '../retry/pause.js';
import type { EventBusMetrics } from './metrics.js';

export interface NatsConnectionOptions {
  /** Comma-separated NATS URLs, e.g. `nats://127.0.0.1:4222`. */
  servers: string;
  user?: string;
  password?: string;
  tls?: { caFile?: string; certFile?: string; keyFile?: string };
  /** Client name shown by the server's monitoring; the controller name. */
  name: string;
}

export interface NatsLink {
  /** The connection while it is up; undefined while connecting or disconnected. */
  current(): NatsConnection | undefined;
  /** Resolves with the connection once it is up; rejects when the signal aborts. */
  whenConnected(signal: AbortSignal): Promise<NatsConnection>;
  close(): Promise<void>;
}

export interface NatsLinkOptions {
  connection: NatsConnectionOptions;
  log: Logger;
  metrics: EventBusMetrics;
  /** Runs after every connect and reconnect (the server may have lost its JetStream state). */
  onConnected: (connection: NatsConnection) => Promise<void>;
}

export function natsClientOptions(options: NatsConnectionOptions): NodeConnectionOptions {
  return {
    servers: options.servers.split(',').map((server) => server.trim()),
    name: options.name,
    ...(options.user === undefined ? {} : { user: options.user, pass: options.password ?? '' }),
    ...(options.tls === undefined ? {} : { tls: options.tls }),
    maxReconnectAttempts: -1,
    reconnectTimeWait: 1_000,
    timeout: 5_000,
  };
}

export function openNatsLink(options: NatsLinkOptions): NatsLink {
  const { log, metrics } = options;
  const stopping = new AbortController();
  const waiters = new Set<(connection: NatsConnection) => void>();
  /** The client object, also while it reconnects; close() must reach it. */
  let client: NatsConnection | undefined;
  /** The client while it is connected. */
  let live: NatsConnection | undefined;

  const setConnected = (connection: NatsConnection | undefined): void => {
    live = connection;
    metrics.connected.set(connection === undefined ? 0 : 1);
    if (connection === undefined) return;
    for (const wake of waiters) wake(connection);
    waiters.clear();
  };

  const prepare = (connection: NatsConnection): void => {
    options.onConnected(connection).catch((error: unknown) => {
      log.warn({ err: error }, 'preparing the NATS connection failed; the consumers retry it on their own');
    });
  };

  const followStatus = async (connection: NatsConnection): Promise<void> => {
    for await (const status of connection.status()) {
      if (status.type === 'disconnect') {
        log.warn({ server: status.server }, 'disconnected from NATS; reconnecting');
        setConnected(undefined);
      } else if (status.type === 'reconnect') {
        log.info({ server: status.server }, 'reconnected to NATS');
        setConnected(connection);
        prepare(connection);
      } else if (status.type === 'error') {
        log.warn({ err: status.error }, 'NATS reported an error');
      }
    }
  };

  const keepConnected = async (): Promise<void> => {
    let attempt = 0;
    while (!stopping.signal.aborted) {
      try {
        const connection = await connect(natsClientOptions(options.connection));
        if (stopping.signal.aborted) {
          await connection.close();
          return;
        }
        attempt = 0;
        client = connection;
        log.info({ server: connection.getServer() }, 'connected to NATS');
        setConnected(connection);
        prepare(connection);
        const following = followStatus(connection);
        const closedWith = await connection.closed();
        await following;
        client = undefined;
        setConnected(undefined);
        if (!stopping.signal.aborted) log.warn({ err: closedWith }, 'NATS connection closed; opening a new one');
      } catch (error) {
        log.warn({ err: error, attempt, servers: options.connection.servers }, 'cannot connect to NATS; retrying');
      }
      await pause(backoffDelayMs(attempt++, reconnectBackoff), stopping.signal);
    }
  };
  const running = keepConnected();

  return {
    current: () => live,
    whenConnected: (signal) =>
      new Promise((resolve, reject) => {
        if (live !== undefined) return resolve(live);
        const onAbort = (): void => {
          waiters.delete(wake);
          reject(new Error('stopped waiting for NATS', { cause: signal.reason }));
        };
        const wake = (connection: NatsConnection): void => {
          signal.removeEventListener('abort', onAbort);
          resolve(connection);
        };
        if (signal.aborted) return onAbort();
        waiters.add(wake);
        signal.addEventListener('abort', onAbort, { once: true });
      }),
    close: async () => {
      stopping.abort();
      await client?.close();
      await running;
      setConnected(undefined);
    },
  };
}
