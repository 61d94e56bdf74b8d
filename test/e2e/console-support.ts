// Helpers of the console's bed tests: the console's kubeconfig (two contexts of the bed, no credentials of its own),
// the console's bundle run as a process, ServiceAccount tokens and their RBAC, HTTP calls as a caller, a
// Server-Sent Events reader, and the headless browser the page is tested in.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createWriteStream, rmSync, writeFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { CoreV1Api, RbacAuthorizationV1Api } from '@kubernetes/client-node';
import { ZOOKEEPER_ROLLING, ZOOKEEPER_SCALE, ZOOKEEPER_WORKLOAD } from '@zk-oam/apis';
import { chromium, type Browser } from 'playwright-core';
import { stringify } from 'yaml';
import { serviceAccountBearerToken, type BedInfo } from '../src/bed/index.js';
import { deploymentRuntimeEnv, repoRoot } from '../src/controllers/index.js';
import { PooledKubeConfig } from '@zk-oam/runtime';

/**
 * A kubeconfig with one context per namespace, all on the bed's cluster, whose user has no credentials: the console
 * must use the caller's token, never its own.
 */
export function consoleKubeconfig(bed: BedInfo, file: string, contexts: Record<string, string>): string {
  const admin = new PooledKubeConfig();
  admin.loadFromFile(bed.kubeconfig);
  const cluster = admin.getCurrentCluster();
  if (cluster?.caData === undefined) throw new Error('the bed kubeconfig has no CA data');
  writeFileSync(
    file,
    stringify({
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [{ name: 'bed', cluster: { server: cluster.server, 'certificate-authority-data': cluster.caData } }],
      users: [{ name: 'console-itself', user: {} }],
      contexts: Object.entries(contexts).map(([name, namespace]) => ({ name, context: { cluster: 'bed', user: 'console-itself', namespace } })),
      'current-context': Object.keys(contexts)[0],
    }),
  );
  return file;
}

/** Two ClusterRoles: every verb on the ZooKeeper kinds, or reading them; both may read Events. */
export async function createConsoleRoles(admin: PooledKubeConfig, prefix: string): Promise<{ edit: string; view: string }> {
  const rbac = admin.makeApiClient(RbacAuthorizationV1Api);
  const groups = [ZOOKEEPER_WORKLOAD.group, ZOOKEEPER_SCALE.group, ZOOKEEPER_ROLLING.group];
  const resources = [ZOOKEEPER_WORKLOAD.plural, ZOOKEEPER_SCALE.plural, ZOOKEEPER_ROLLING.plural];
  const events = { apiGroups: [''], resources: ['events'], verbs: ['get', 'list', 'watch'] };
  const roles = { edit: `${prefix}-edit`, view: `${prefix}-view` };
  const verbs = { edit: ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete'], view: ['get', 'list', 'watch'] };
  for (const which of ['edit', 'view'] as const) {
    await rbac.createClusterRole({ body: { metadata: { name: roles[which] }, rules: [{ apiGroups: groups, resources, verbs: verbs[which] }, events] } });
  }
  return roles;
}

/** Deletes the two ClusterRoles createConsoleRoles made (none when it did not run). */
export async function deleteConsoleRoles(admin: PooledKubeConfig, roles: { edit: string; view: string }): Promise<void> {
  const rbac = admin.makeApiClient(RbacAuthorizationV1Api);
  for (const role of [roles.edit, roles.view]) if (role !== '') await rbac.deleteClusterRole({ name: role });
}

/** After a console test: the console stopped, its ClusterRoles deleted, its kubeconfig's directory removed. */
export async function cleanUpConsole(admin: PooledKubeConfig, parts: { console: ConsoleProcess | undefined; roles: { edit: string; view: string }; workDir: string }): Promise<void> {
  await parts.console?.stop();
  await deleteConsoleRoles(admin, parts.roles);
  rmSync(parts.workDir, { recursive: true, force: true });
}

export async function bindRole(admin: PooledKubeConfig, namespace: string, role: string, account: { namespace: string; name: string }): Promise<void> {
  await admin.makeApiClient(RbacAuthorizationV1Api).createNamespacedRoleBinding({
    namespace,
    body: {
      metadata: { name: `${account.name}-${role}` },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: role },
      subjects: [{ kind: 'ServiceAccount', name: account.name, namespace: account.namespace }],
    },
  });
}

/** A ServiceAccount and a bearer token for it (TokenRequest), as a person logging in to the console would hold. */
export async function serviceAccountToken(admin: PooledKubeConfig, namespace: string, name: string): Promise<string> {
  await admin.makeApiClient(CoreV1Api).createNamespacedServiceAccount({ namespace, body: { metadata: { name } } });
  return serviceAccountBearerToken(admin, namespace, name, 3600);
}

export interface Answer {
  readonly code: number;
  readonly body: unknown;
}

/** Calls the console as the holder of `token` (none: anonymous). */
export async function call(base: string, method: string, path: string, token: string | undefined, body?: unknown): Promise<Answer> {
  const headers: Record<string, string> = { ...(token === undefined ? {} : { Authorization: `Bearer ${token}` }) };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const response = await fetch(`${base}${path}`, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  const text = await response.text();
  return { code: response.status, body: text === '' ? undefined : (JSON.parse(text) as unknown) };
}

export interface SseEvent {
  readonly event: string;
  readonly data: unknown;
}

/** Reads a Server-Sent Events response frame by frame. */
export class SseReader {
  private buffer = '';
  private readonly reader: ReadableStreamDefaultReader<Uint8Array>;
  private readonly decoder = new TextDecoder();

  constructor(response: Response) {
    if (response.body === null) throw new Error('a stream without a body');
    this.reader = response.body.getReader();
  }

  /** The next event (comments skipped); undefined when the stream ended. */
  async next(): Promise<SseEvent | undefined> {
    for (;;) {
      const end = this.buffer.indexOf('\n\n');
      if (end >= 0) {
        const frame = this.buffer.slice(0, end);
        this.buffer = this.buffer.slice(end + 2);
        const fields = Object.fromEntries(frame.split('\n').filter((line) => !line.startsWith(':')).map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 2)]));
        if (fields['event'] !== undefined) return { event: fields['event'], data: JSON.parse(fields['data'] ?? 'null') as unknown };
        continue;
      }
      const chunk = await this.reader.read();
      if (chunk.done) return undefined;
      this.buffer += this.decoder.decode(chunk.value, { stream: true });
    }
  }

  /** Reads events until one satisfies `accept`, and returns it. */
  async until(accept: (event: SseEvent) => boolean): Promise<SseEvent> {
    for (;;) {
      const event = await this.next();
      if (event === undefined) throw new Error('the stream ended first');
      if (accept(event)) return event;
    }
  }

  /** Every event left until the stream ends (a stream that never ends keeps the test waiting until it times out). */
  async remaining(): Promise<SseEvent[]> {
    const events: SseEvent[] = [];
    for (let event = await this.next(); event !== undefined; event = await this.next()) events.push(event);
    return events;
  }

  async close(): Promise<void> {
    await this.reader.cancel();
  }
}

export interface ConsoleProcess {
  /** `http://127.0.0.1:<port>` */
  readonly base: string;
  readonly logFile: string;
  /** SIGTERM, then its exit code. */
  stop(): Promise<number | null>;
}

/**
 * Runs the console's bundle (console/dist/main.mjs, what `npm run build` writes and an image would copy) on a free
 * port, with the bed's NATS and the Node settings of its Deployment, its log in <bed>/logs/console.log; resolves once
 * it logs the address it serves.
 */
export async function startConsole(bed: BedInfo, kubeconfig: string): Promise<ConsoleProcess> {
  await mkdir(join(bed.dir, 'logs'), { recursive: true });
  const logFile = join(bed.dir, 'logs', 'console.log');
  const log = createWriteStream(logFile, { flags: 'a' });
  const child = spawn(process.execPath, [join(repoRoot, 'console/dist/main.mjs')], {
    env: {
      ...process.env,
      ...(await deploymentRuntimeEnv('console')),
      KUBECONFIG: kubeconfig,
      CONSOLE_PORT: '0',
      LOG_LEVEL: 'info',
      NATS_URL: bed.nats.url,
      NATS_USER: bed.nats.user,
      NATS_PASSWORD: bed.nats.password,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stderr.pipe(log);
  const stop = async (): Promise<number | null> => {
    if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
    child.kill('SIGTERM');
    const [code] = (await once(child, 'exit')) as [number | null];
    return code;
  };
  for await (const line of createInterface({ input: child.stdout })) {
    log.write(`${line}\n`);
    const port = (JSON.parse(line) as { msg?: string; address?: { port?: number } }).address?.port;
    if (port !== undefined) {
      child.stdout.pipe(log);
      return { base: `http://127.0.0.1:${String(port)}`, logFile, stop };
    }
  }
  throw new Error(`the console exited before serving; see ${logFile}`);
}

/** Debian's Chromium, installed by the bootstrap; nothing downloads a browser. */
export const CHROMIUM = '/usr/bin/chromium';

/**
 * Headless Chromium driven by playwright-core. The flags keep it off the network it would otherwise call at start
 * (this machine's is closed) and let it run as root.
 */
export async function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}
