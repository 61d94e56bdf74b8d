// Shared by the znode controller's bed tests: the workload and znode controllers as processes with their shipped RBAC,
// a client for ZookeeperZnodes, and a tenant's client that knows only its discovery ConfigMap and Secret.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DISCOVERY_CONFIG_KEYS, DISCOVERY_SECRET_KEYS, discoveryNames, ZOOKEEPER_ZNODE, zookeeperZnodeSchema, type ZookeeperZnode, type ZookeeperZnodeInput } from '@zk-oam/apis';
import { afterAll, beforeAll } from 'vitest';
import type { BedInfo } from '../src/bed/index.js';
import { CustomObjects, startControllerProcess, stopCleanly, useWorkloadController, waitControllerReady, waitFor, type ControllerProcess, type WorkloadClient, type WorkloadControllerSuite } from '../src/controllers/index.js';
import { runZkCli } from '../src/zookeeper-jvm/index.js';

export interface ZnodeSuite extends WorkloadControllerSuite {
  readonly znodes: ZnodeClient;
  znodeController(): ControllerProcess;
}

/** Both controllers for one test file; the znode controller looks again every second while it waits. */
export function useZnodeController(bed: BedInfo, options: { namespacePrefix: string; env?: Readonly<Record<string, string>> }): ZnodeSuite {
  const workloadSuite = useWorkloadController(bed, { namespacePrefix: options.namespacePrefix, env: { IDLE_PERIOD_MS: '2000' } });
  const znodes = new ZnodeClient(bed);
  let running: ControllerProcess | undefined;
  beforeAll(async () => {
    running = await startControllerProcess({ bed, name: 'znode', logLevel: 'info', env: { WAIT_PERIOD_MS: '1000', ...options.env } });
    await waitControllerReady(running);
  });
  afterAll(async () => {
    // The znodes' finalizers need the controller: they go before it stops, so the namespace's deletion never waits.
    // Stopped even when they do not go: a controller left running would act in the next file's namespaces.
    try {
      const left = await znodes.list(workloadSuite.namespace);
      for (const name of left) await znodes.delete(workloadSuite.namespace, name);
      await waitFor('the znodes gone', () => znodes.list(workloadSuite.namespace), (names) => names.length === 0, 120_000);
    } finally {
      await stopCleanly(running);
    }
  });
  return {
    ...workloadSuite,
    znodes,
    znodeController: () => {
      if (running === undefined) throw new Error('the znode controller has not been started');
      return running;
    },
  };
}

/** ZookeeperZnodes as the bed's admin creates and reads them. */
export class ZnodeClient extends CustomObjects<typeof zookeeperZnodeSchema> {
  constructor(bed: BedInfo) {
    super(bed, ZOOKEEPER_ZNODE, zookeeperZnodeSchema);
  }

  override create(namespace: string, name: string, spec: ZookeeperZnodeInput['spec']): Promise<void> {
    return super.create(namespace, name, spec);
  }
}

export function znodeCondition(znode: ZookeeperZnode, type: string): { status: string; reason: string; message: string } | undefined {
  return znode.status?.conditions?.find((entry) => entry.type === type);
}

/** What a tenant's application is given: its discovery ConfigMap's data and its Secret's, decoded. */
export interface Discovery {
  readonly config: Readonly<Record<string, string>>;
  readonly secret: Readonly<Record<string, string>>;
}

export async function readDiscovery(client: WorkloadClient, namespace: string, znode: string): Promise<Discovery> {
  const names = discoveryNames(znode);
  const configMap = await client.core.readNamespacedConfigMap({ namespace, name: names.configMap });
  const secret = await client.core.readNamespacedSecret({ namespace, name: names.secret });
  const decoded = Object.fromEntries(Object.entries(secret.data ?? {}).map(([key, value]) => [key, Buffer.from(value, 'base64').toString('utf8')]));
  return { config: configMap.data ?? {}, secret: decoded };
}

/**
 * ZooKeeper's Java client as a tenant's application runs it: connected with the discovery ConfigMap's ZOOKEEPER (the
 * client Service's name, resolved through cluster DNS, and the path as chroot), over TLS trusting the ConfigMap's
 * ca.crt when ZOOKEEPER_TLS says that port speaks TLS, logged in with the JAAS file of the discovery Secret when there
 * is one. `options.connectString` lets a test point one tenant's credentials at another's path; `options.keyStore`
 * is the tenant's own certificate and key (PEM), which it brings where the workload authenticates clients by x509.
 */
export async function tenantZkCli(
  bed: BedInfo,
  tenant: Discovery,
  command: readonly string[],
  options: { readonly connectString?: string | undefined; readonly keyStore?: string } = {},
): Promise<{ ok: boolean; output: string }> {
  const server = options.connectString ?? tenant.config[DISCOVERY_CONFIG_KEYS.connectString] ?? '';
  const dir = await mkdtemp(join(tmpdir(), 'zk-oam-tenant-'));
  try {
    return await runZkCli(bed.resolvConf, await clientOptions(dir, tenant, options.keyStore), server, ...command);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The JVM options of a tenant's client: its JAAS file, the CA it trusts and its own certificate, as it has them. */
async function clientOptions(dir: string, tenant: Discovery, keyStore: string | undefined): Promise<string[]> {
  const options: string[] = [];
  const jaas = tenant.secret[DISCOVERY_SECRET_KEYS.jaas];
  if (jaas !== undefined) {
    await writeFile(join(dir, 'jaas.conf'), jaas);
    options.push(`-Djava.security.auth.login.config=${join(dir, 'jaas.conf')}`);
  }
  if (tenant.config[DISCOVERY_CONFIG_KEYS.tls] === 'true') {
    await writeFile(join(dir, 'ca.crt'), tenant.config[DISCOVERY_CONFIG_KEYS.ca] ?? '');
    options.push(
      '-Dzookeeper.clientCnxnSocket=org.apache.zookeeper.ClientCnxnSocketNetty',
      '-Dzookeeper.client.secure=true',
      `-Dzookeeper.ssl.trustStore.location=${join(dir, 'ca.crt')}`,
      '-Dzookeeper.ssl.trustStore.type=PEM',
    );
  }
  if (keyStore !== undefined) options.push(`-Dzookeeper.ssl.keyStore.location=${keyStore}`, '-Dzookeeper.ssl.keyStore.type=PEM');
  return options;
}
