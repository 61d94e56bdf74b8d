import { createServer } from 'node:net';
import { Gauge, type Registry } from 'prom-client';
import { describe, expect, it, vi } from 'vitest';
import { PooledKubeConfig } from '../kube/pooled-kube-config.js';
import { createLogger } from '../logging/logger.js';
import type { ConfiguredController } from './controller-module.js';
import { runControllerSet, type NamedController } from './controller-set.js';
import { Manager } from './manager.js';
import { processEnvSchema, type ControllerProcessParts } from './process.js';

const log = createLogger({ name: 'controller-set-test', level: 'silent' });

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (typeof address !== 'object' || address === null) throw new Error('no port');
  return address.port;
}

/** A controller whose start registers a gauge on the registry it is given, and throws on its first `failures` starts. */
function controller(name: string, failures = 0): { name: string; configured: ConfiguredController; starts: () => number } {
  let starts = 0;
  const configured: ConfiguredController = {
    names: { name: `zk-oam-${name}`, leaderElectionLease: `zk-oam-${name}` },
    env: processEnvSchema.parse({ KUBECONFIG: 'unused' }),
    oldSettingNames: [],
    start: (parts) => {
      starts += 1;
      if (starts <= failures) throw new Error(`${name} could not start`);
      new Gauge({ name: 'started_controllers', help: 'test', registers: [parts.registry] }).set(1);
      return {};
    },
  };
  return { name, configured, starts: () => starts };
}

/** A Manager with no informer and no election: it leads at once and needs no apiserver. */
function offlineParts({ configured }: NamedController, registry: Registry): ControllerProcessParts {
  const kubeConfig = new PooledKubeConfig();
  kubeConfig.loadFromClusterAndUser({ name: 'none', server: 'https://127.0.0.1:1', skipTLSVerify: false }, { name: 'none' });
  const manager = new Manager({ name: configured.names.name, kubeConfig, logger: log, registry });
  return { manager, log, registry, identity: 'test' };
}

async function get(port: number, path: string): Promise<{ status: number; body: string }> {
  const response = await fetch(`http://127.0.0.1:${String(port)}${path}`);
  return { status: response.status, body: await response.text() };
}

/** vitest's poller, the one the unit tests wait with; its last error names what was awaited and the last reply. */
function until<T>(what: string, read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  return vi.waitFor(
    async () => {
      const value = await read();
      if (!done(value)) throw new Error(`waiting for ${what}: ${JSON.stringify(value)}`);
      return value;
    },
    { timeout: 10_000, interval: 20 },
  );
}

describe('runControllerSet', () => {
  it('names a controller that failed to start in /readyz while the others run, starts it again, and keeps each one’s metrics apart', async () => {
    const port = await freePort();
    const stop = new AbortController();
    const failing = controller('scale', 1);
    const healthy = controller('workload');
    const running = runControllerSet([healthy, failing], {
      env: { METRICS_PORT: port, HEALTH_HOST: '127.0.0.1' },
      log,
      signal: stop.signal,
      makeParts: offlineParts,
      restartBackoff: { baseMs: 1_500, maxMs: 1_500 },
    });
    const failed = await until('the failure in /readyz', () => get(port, '/readyz'), (reply) => reply.body.includes('scale: stopped'));
    expect(failed.status).toBe(503);
    expect(failed.body).toContain('scale: stopped (scale could not start); starting again in 2 s');
    expect(failed.body).not.toContain('workload');
    expect(await get(port, '/readyz/workload')).toEqual({ status: 200, body: 'ok\n' });
    expect((await get(port, '/readyz/scale')).status).toBe(503);
    expect((await get(port, '/readyz/rolling')).status).toBe(404);

    expect(await until('every controller ready', () => get(port, '/readyz'), (reply) => reply.status === 200)).toEqual({ status: 200, body: 'ok\n' });
    expect(failing.starts()).toBe(2);
    const metrics = (await get(port, '/metrics')).body;
    expect(metrics).toContain('started_controllers{controller="workload"} 1');
    expect(metrics).toContain('started_controllers{controller="scale"} 1');
    expect(metrics).toContain('manager_controller_restarts_total{controller="scale"} 1');
    // The process' own series once, with no controller label.
    expect(metrics.match(/^process_resident_memory_bytes /gm)).toHaveLength(1);

    stop.abort();
    await running;
    expect(healthy.starts()).toBe(1);
  });
});
