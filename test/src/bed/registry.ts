// The bed's image registry: Debian's docker-registry (the distribution registry, 2.8) on a free loopback port, its blobs
// in a directory the caller chooses, kept running like the control plane's components (supervise). Plain HTTP: nothing
// off this machine can reach a loopback port, and image tools reach a loopback registry without TLS as Docker does
// (test/src/images/registry-copy.ts).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { stringify } from 'yaml';
import { httpStatus } from './http-status.js';
import { freePort } from './ports.js';
import { exitEndsWait, killOnProcessExit, startWhenReady, type ManagedProcess, type ProcessSpec } from './process.js';
import { supervise } from './supervise.js';
import { LOCAL_POLL_INTERVAL_MS, waitFor } from '../wait-for.js';

export interface Registry {
  /** 127.0.0.1:<port>, the host part of the references pushed to it. */
  readonly host: string;
  /** Stops it (SIGTERM, then SIGKILL after a grace period); what it stored stays in the storage directory. */
  stop(): Promise<void>;
}

export interface RegistryOptions {
  /** The bed directory: the configuration goes to <bedDir>/registry/, the log to <bedDir>/logs/registry.log. */
  readonly bedDir: string;
  /** Where the blobs and manifests are kept; <bedDir>/registry/storage when absent. */
  readonly storageDir?: string;
  readonly log: Logger;
  readonly timeoutMs: number;
  /** Debian's when absent. */
  readonly binary?: string;
}

/** The registry's configuration (JSON lines in its log; no auth, no TLS, loopback only). */
export function renderRegistryConfig(input: { port: number; storageDir: string }): string {
  return stringify({
    version: '0.1',
    log: { level: 'info', formatter: 'json' },
    storage: { filesystem: { rootdirectory: input.storageDir } },
    http: { addr: `127.0.0.1:${String(input.port)}` },
  });
}

/** The environment without REGISTRY_* variables, which the registry would take as overrides of its configuration. */
function registryEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([name]) => !name.startsWith('REGISTRY_')));
}

/** Starts the registry and resolves once its API answers (GET /v2/ is 200 without auth). */
export async function startRegistry(options: RegistryOptions): Promise<Registry> {
  const log = options.log.child({ component: 'registry' });
  const dir = join(options.bedDir, 'registry');
  const storageDir = options.storageDir ?? join(dir, 'storage');
  mkdirSync(dir, { recursive: true });
  mkdirSync(storageDir, { recursive: true });
  const port = await freePort();
  const host = `127.0.0.1:${String(port)}`;
  const configFile = join(dir, 'config.yml');
  writeFileSync(configFile, renderRegistryConfig({ port, storageDir }));
  const spec: ProcessSpec = {
    name: 'registry',
    command: options.binary ?? '/usr/bin/docker-registry',
    args: ['serve', configFile],
    bedDir: options.bedDir,
    env: registryEnv(process.env),
  };
  const start = async (): Promise<ManagedProcess> => {
    log.info({ step: 'start', host, storageDir, configFile }, 'starting the registry');
    const started = await startWhenReady(spec, (child) =>
      waitFor('the registry API (GET /v2/)', () => httpStatus(`http://${host}/v2/`), (status) => status === 200, options.timeoutMs, LOCAL_POLL_INTERVAL_MS, exitEndsWait([child])),
    );
    log.info({ step: 'ready', host, pid: started.pid }, 'the registry answers');
    return started;
  };
  const child = supervise(await start(), start, log);
  const forgetRegistry = killOnProcessExit(() => [child]);
  return {
    host,
    stop: async () => {
      forgetRegistry();
      const status = await child.stop();
      log.info({ step: 'stop', host, status }, 'the registry stopped');
    },
  };
}
