// `npm start`, after `cluster:up`: installs the controllers and the console as a user does, the default install
// (kubectl apply -k deploy/manager, every controller in one Deployment, and deploy/console; the node agent runs their
// pods from the images the bed built and serves, `cluster:down` stops them with the bed), applies the samples of
// deploy/samples/, shows the ensemble coming up until it is Ready, then says where each
// controller pod's log is, where the console is and a token to sign in with, and what to try next.
import { join } from 'node:path';
import { ApiException, RbacAuthorizationV1Api } from '@kubernetes/client-node';
import { ZOOKEEPER_PORTS, type ZookeeperWorkload } from '@zk-oam/apis';
import { workloadNames } from '@zk-oam/workload';
import { fourLetterWord, parseSrvr } from '@zk-oam/zookeeper';
import { srvrThroughService } from './service-srvr.js';
import { pino } from 'pino';
import { z } from 'zod';
import { serviceAccountBearerToken } from './bed/index.js';
import { imageOptions } from './bed/bed.js';
import { otherInstallImages, publishOurImages } from './bed/bed-images.js';
import { bedImageRepository, CONTROLLER_NAMES } from './bed/controller-images.js';
import { clusterFiles, openDoors, readyInfo } from './cluster-files.js';
import { resolveThrough } from './bed/cluster-dns.js';
import { ControllerPods } from './controllers/controller-pods.js';
import { DEFAULT_INSTALL, installedDeployments } from './controllers/install.js';
import { applyManifests, isReady, readManifests, repoRoot, waitFor, waitForValue, WorkloadClient } from './controllers/index.js';
import { PooledKubeConfig } from '@zk-oam/runtime';

const namespace = 'zk-demo';
/** The person the demo signs in as: bound to Kubernetes' built-in edit role, which aggregates zk-oam-edit. */
const demoUser = 'console-demo';
const DEMO_TOKEN_SECONDS = 24 * 3600;
const sampleSchema = z.looseObject({ kind: z.string(), metadata: z.looseObject({ name: z.string() }) });
const readyTimeoutMs = 8 * 60_000;
/** The OAM samples, in the order they are applied: the appconfig controller renders them into a workload and its traits. */
const SAMPLE_KINDS = ['Component', 'ApplicationConfiguration'] as const;

function say(line: string): void {
  process.stdout.write(`[start] ${line}\n`);
}

async function samples(): Promise<Record<string, unknown>[]> {
  const objects = await readManifests(join(repoRoot, 'deploy/samples'));
  return SAMPLE_KINDS.flatMap((kind) =>
    objects
      .filter((object) => object['kind'] === kind)
      .map((object) => {
        const sample = sampleSchema.parse(object);
        return { ...sample, metadata: { ...sample.metadata, namespace } };
      }),
  );
}

function describeWorkload(workload: ZookeeperWorkload): string {
  const status = workload.status;
  const members = (status?.members ?? []).map((member) => `${member.pod}:${member.role}${member.synced ? '' : '(syncing)'}`).join(' ');
  return `${workload.metadata.name}: phase ${status?.phase ?? 'Pending'}, ready ${String(status?.readyReplicas ?? 0)}/${String(workload.spec.replicas)}, leader ${status?.leader ?? '-'}  ${members}`;
}

/**
 * Ready with every member up and synced: Ready alone means a quorum serves, and a member still syncing answers `srvr`
 * with "not currently serving requests" (a cold start failed on it once, 2026-11-29).
 */
function everyMemberServing(workload: ZookeeperWorkload): boolean {
  const members = workload.status?.members ?? [];
  return isReady(workload) && (workload.status?.readyReplicas ?? 0) === workload.spec.replicas && members.length === workload.spec.replicas && members.every((member) => member.synced);
}

/** Says each change of the workloads' progress as it is seen, until one of them is Ready with every member serving. */
async function waitForReadyEnsemble(client: WorkloadClient): Promise<ZookeeperWorkload> {
  let last = '';
  const showProgress = async (): Promise<ZookeeperWorkload | undefined> => {
    const workloads = await client.list(namespace);
    for (const workload of workloads) {
      const line = describeWorkload(workload);
      if (line !== last) say(line);
      last = line;
    }
    return workloads.find(everyMemberServing);
  };
  return waitForValue('an ensemble Ready (see the controller and agent logs)', showProgress, readyTimeoutMs);
}

/**
 * The controller pods once Ready (their probes may pass after the ensemble is up): the controllers whose Lease each one
 * holds, and where the agent writes its output.
 */
async function describeControllers(controllers: ControllerPods): Promise<void> {
  const deployments = installedDeployments(DEFAULT_INSTALL);
  for (const name of deployments) await controllers.waitReady(name);
  const holders = await Promise.all(CONTROLLER_NAMES.map(async (name) => ({ name, holder: await controllers.leaseHolder(name) })));
  for (const deployment of deployments) {
    for (const pod of await controllers.pods(deployment)) {
      const leads = holders.filter(({ holder }) => holder === pod.name).map(({ name }) => name);
      const role = leads.length === 0 ? 'standby' : `leader of ${leads.join(', ')}`;
      say(`  ${pod.name.padEnd(36)} ${pod.ready ? 'Ready    ' : 'not Ready'} ${role.padEnd(44)} log ${pod.logFile}`);
    }
  }
}

/** The console's pod, Ready, and a token for a person who may edit the demo namespace (TokenRequest, a day long). */
async function consoleAccess(controllers: ControllerPods, client: WorkloadClient): Promise<{ url: string; token: string }> {
  const [pod] = await waitFor('the console pod Ready', () => controllers.pods('console'), (pods) => pods.length > 0 && pods.every((found) => found.ready), 120_000);
  if (pod === undefined) throw new Error('no console pod');
  await client.core.createNamespacedServiceAccount({ namespace, body: { metadata: { name: demoUser } } }).catch(ignoreConflict);
  const admin = new PooledKubeConfig();
  admin.loadFromFile(client.bed.kubeconfig);
  const rbac = admin.makeApiClient(RbacAuthorizationV1Api);
  const binding = {
    metadata: { name: `${demoUser}-edit` },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'edit' },
    subjects: [{ kind: 'ServiceAccount', name: demoUser, namespace }],
  };
  await rbac.createNamespacedRoleBinding({ namespace, body: binding }).catch(ignoreConflict);
  const token = await serviceAccountBearerToken(admin, namespace, demoUser, DEMO_TOKEN_SECONDS);
  const door = openDoors()?.['console'];
  if (door === undefined) throw new Error(`the console's door is not open (${clusterFiles.openDoors}); run npm run cluster:down, then npm start`);
  return { url: `http://127.0.0.1:${String(door)}/#/?namespace=${namespace}`, token };
}

/** What a client application is given: the client Service's DNS name, resolved by cluster DNS, answering on its ClusterIP. */
async function showClientService(dnsServiceIp: string, workload: ZookeeperWorkload): Promise<void> {
  const name = `${workloadNames(workload).clientService}.${namespace}.svc.cluster.local`;
  const [address] = await resolveThrough(dnsServiceIp, name);
  if (address === undefined) throw new Error(`cluster DNS (${dnsServiceIp}) does not resolve ${name}`);
  const srvr = await srvrThroughService(address);
  say(`clients connect to ${name}:${String(ZOOKEEPER_PORTS.client)}: cluster DNS gives ${address} (the client Service), where a member in mode ${srvr.mode} answered`);
}

/**
 * The separate install's images, built and pushed to the bed's registry once the default install is shown working (the
 * bed serves the default install's alone, so that a cold start builds nothing the demo does not run).
 */
async function publishSeparateInstallImages(registry: string): Promise<void> {
  const names = otherInstallImages();
  const started = Date.now();
  say(`building the separate install's images (${names.join(', ')}), for kubectl apply -k deploy/<controller> here:`);
  const log = pino({ name: 'images', level: 'warn' });
  await publishOurImages({ ...imageOptions(log), names, progress: (line) => say(`  ${line}`) }, registry, log);
  say(`  pushed to the bed's registry ${registry} in ${String(Math.round((Date.now() - started) / 1000))} s`);
}

function ignoreConflict(error: unknown): void {
  if (!(error instanceof ApiException && error.code === 409)) throw error;
}

async function main(): Promise<void> {
  const bed = readyInfo();
  if (!bed) throw new Error('the bed is not up: run npm run cluster:up first');
  const started = Date.now();
  const controllers = new ControllerPods(bed);
  const installed = [...installedDeployments(DEFAULT_INSTALL), 'console'] as const;
  await controllers.installShared(installed);
  const client = new WorkloadClient(bed);
  const objects = await samples();
  if (objects.length === 0) throw new Error('deploy/samples/ holds no Component or ApplicationConfiguration');
  // The samples go in while the controllers start, and the console with them, so that its pod becomes Ready while the
  // ensemble comes up: the controllers pick up what is already there, as after any restart.
  await Promise.all([
    controllers.installDeployments(installed),
    client
      .createNamespace(namespace)
      .catch(() => undefined)
      .then(() => applyManifests(bed, objects)),
  ]);
  say(`installed ${installed.map((name) => `deploy/${name}`).join(', ')} (the ${DEFAULT_INSTALL} install) with kubectl apply --server-side -k, each through an overlay in ${join(bed.dir, 'kustomize')}/ whose images: points it at the bed's registry (${bedImageRepository(bed, 'manager')}, ...)`);
  say(`applied ${objects.map((object) => String(object['kind'])).join(', ')} from deploy/samples/ in namespace ${namespace}`);
  const workload = await waitForReadyEnsemble(client);
  say(`ensemble ${workload.metadata.name} Ready ${String(Math.round((Date.now() - started) / 1000))} s after start; each member over its pod IP:`);
  for (const member of workload.status?.members ?? []) {
    const pod = await client.core.readNamespacedPod({ namespace, name: member.pod });
    const ip = pod.status?.podIP ?? '';
    const srvr = parseSrvr(await fourLetterWord(ip, ZOOKEEPER_PORTS.client, 'srvr', { timeoutMs: 3_000 }));
    say(`  ${member.pod}  ${ip}  node ${pod.spec?.nodeName ?? ''}  mode ${srvr.mode}  zxid 0x${srvr.zxid.value.toString(16)}`);
  }
  await showClientService(bed.network.dnsServiceIp, workload);
  say(
    DEFAULT_INSTALL === 'combined'
      ? `the controllers (${CONTROLLER_NAMES.join(', ')}) in the pods of the Deployment zk-oam-manager, each under its own Lease:`
      : 'the controllers, each a Deployment in zk-oam-system:',
  );
  await describeControllers(controllers);
  const access = await consoleAccess(controllers, client);
  say(`the console (deploy/console) serves ${access.url}`);
  say(`  sign in as ${namespace}/${demoUser} (may edit ${namespace} through the built-in edit role) with this token, valid for a day:`);
  process.stdout.write(`\n${access.token}\n\n`);
  await publishSeparateInstallImages(bed.registry);
  process.stdout.write(
    [
      '',
      'Try next:',
      `  export KUBECONFIG=${clusterFiles.kubeconfig} PATH=${bed.binDir}:$PATH`,
      `  kubectl -n ${namespace} get zookeeper                       # workloads and traits`,
      `  kubectl -n ${namespace} describe zkw ${workload.metadata.name}                    # conditions, members, Events`,
      `  kubectl -n ${namespace} get pods -o wide`,
      '  kubectl -n zk-oam-system get deploy,pods,leases                  # the controllers and who leads each one',
      `  kubectl -n ${namespace} scale zks --all --replicas=5   # one member at a time, never losing quorum`,
      `  npm run cluster:down                                        # stops the bed and the controllers`,
      '',
    ].join('\n'),
  );
}

main().catch((error: unknown) => {
  process.stderr.write(`[start] failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
