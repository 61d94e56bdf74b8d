// `npm start`, after `cluster:up`: puts a 3-member ZooKeeper ensemble on the running bed and shows it working
// (pods Ready, one leader and two followers answering `srvr` on their pod IPs), then says what to try next.
import { AppsV1Api, CoreV1Api, KubeConfig, KubernetesObjectApi, PatchStrategy, type KubernetesObject, type V1Pod } from '@kubernetes/client-node';
import { setTimeout as sleep } from 'node:timers/promises';
import { fourLetterWord, parseSrvr } from '@zk-oam/zookeeper';
import { ensembleName, ensembleObjects } from './agent/fixtures/zookeeper-ensemble.js';
import { clusterFiles, readyInfo } from './cluster-files.js';

const namespace = 'zk-demo';
const replicas = 3;
const readyTimeoutMs = 5 * 60_000;

function say(line: string): void {
  process.stdout.write(`[start] ${line}\n`);
}

async function applyDemo(kubeConfig: KubeConfig): Promise<void> {
  const objects = KubernetesObjectApi.makeApiClient(kubeConfig);
  const apply = async (object: KubernetesObject): Promise<void> => {
    await objects.patch(object, undefined, undefined, 'zk-oam-start', true, PatchStrategy.ServerSideApply);
  };
  await apply({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } });
  const { configMap, service, statefulSet } = ensembleObjects(namespace, replicas);
  await apply({ apiVersion: 'v1', kind: 'ConfigMap', ...configMap });
  await apply({ apiVersion: 'v1', kind: 'Service', ...service });
  await apply({ apiVersion: 'apps/v1', kind: 'StatefulSet', ...statefulSet });
}

function isReady(pod: V1Pod): boolean {
  return pod.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;
}

async function waitForReadyPods(core: CoreV1Api): Promise<V1Pod[]> {
  const deadline = Date.now() + readyTimeoutMs;
  let last = '';
  for (;;) {
    const pods = (await core.listNamespacedPod({ namespace })).items.filter((p) => p.metadata?.name?.startsWith(`${ensembleName}-`));
    const ready = pods.filter(isReady);
    const progress = `${String(ready.length)}/${String(replicas)} ZooKeeper pods Ready`;
    if (progress !== last) say(progress);
    last = progress;
    if (ready.length === replicas) return ready;
    if (Date.now() > deadline) throw new Error(`pods not Ready after ${String(readyTimeoutMs / 1000)}s: see the agent log under the bed's logs/`);
    await sleep(1_000);
  }
}

async function main(): Promise<void> {
  const info = readyInfo();
  if (!info) throw new Error('the bed is not up: run npm run cluster:up first');
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromFile(info.kubeconfig);
  const started = Date.now();
  say(`applying a 3-member ZooKeeper StatefulSet in namespace ${namespace}`);
  await applyDemo(kubeConfig);
  await kubeConfig.makeApiClient(AppsV1Api).readNamespacedStatefulSet({ name: ensembleName, namespace });
  const pods = await waitForReadyPods(kubeConfig.makeApiClient(CoreV1Api));
  say(`ensemble Ready in ${String(Math.round((Date.now() - started) / 1000))}s; each member over its pod IP:`);
  for (const pod of pods) {
    const ip = pod.status?.podIP ?? '';
    const srvr = parseSrvr(await fourLetterWord(ip, 2181, 'srvr', { timeoutMs: 3_000 }));
    say(`  ${pod.metadata?.name ?? ''}  ${ip}  node ${pod.spec?.nodeName ?? ''}  mode ${srvr.mode}  zxid 0x${srvr.zxid.value.toString(16)}`);
  }
  process.stdout.write(
    [
      '',
      'Try next:',
      `  export KUBECONFIG=${clusterFiles.kubeconfig} PATH=${info.binDir}:$PATH`,
      `  kubectl -n ${namespace} get pods -o wide`,
      `  kubectl -n ${namespace} delete pod ${ensembleName}-0     # the agent stops it, the StatefulSet brings it back with its data`,
      '  npm run cluster:down                          # stops everything',
      '',
    ].join('\n'),
  );
}

main().catch((error: unknown) => {
  process.stderr.write(`[start] failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
