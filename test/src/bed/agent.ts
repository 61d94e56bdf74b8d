// Runs the node agent (test/src/agent/main.ts) as a child process of the bed and waits until its Nodes
// are Ready; the agent stops its containers itself on SIGTERM.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CoreV1Api, type V1Node } from '@kubernetes/client-node';
import type { AgentNetwork, NodeImageSource } from '../agent/agent.js';
import { repoRoot } from './paths.js';
import { POLL_INTERVAL_MS, waitFor } from '../wait-for.js';
import { exitEndsWait, startWhenReady, type ManagedProcess } from './process.js';
import { PooledKubeConfig } from '@zk-oam/runtime';

export interface AgentSpec {
  bedDir: string;
  kubeconfig: string;
  nodes: string[];
  /** The registry the nodes pull from, and the archives made for the bed's images (bed-images.ts). */
  images: NodeImageSource;
  /** The nodes' network namespace, its pod range, the CNI plugins and the Services' addresses. */
  network: AgentNetwork;
  timeoutMs: number;
}

/** The agent needs longer than other children to stop: it stops every ZooKeeper process first. */
export const agentStopGraceMs = 30_000;

export function startAgent(spec: AgentSpec): Promise<ManagedProcess> {
  const root = repoRoot();
  const jvmArchives = join(spec.bedDir, 'jvm-archives.json');
  writeFileSync(jvmArchives, `${JSON.stringify(spec.images.jvmArchives, null, 2)}\n`);
  const network = join(spec.bedDir, 'agent-network.json');
  writeFileSync(network, `${JSON.stringify(spec.network, null, 2)}\n`);
  const args = [
    '--import',
    'tsx',
    join(root, 'test/src/agent/main.ts'),
    '--kubeconfig',
    spec.kubeconfig,
    '--dir',
    join(spec.bedDir, 'agent'),
    '--nodes',
    spec.nodes.join(','),
    '--registry-mirror',
    spec.images.mirror,
    '--jvm-archives',
    jvmArchives,
    '--network',
    network,
  ];
  const kubeconfig = new PooledKubeConfig();
  kubeconfig.loadFromFile(spec.kubeconfig);
  const core = kubeconfig.makeApiClient(CoreV1Api);
  return startWhenReady({ name: 'node-agent', command: process.execPath, args, bedDir: spec.bedDir, cwd: root }, async (started) => {
    await waitFor(
      `Nodes ${spec.nodes.join(', ')} to be Ready`,
      async () => new Set((await core.listNode()).items.filter(isReady).map((node) => node.metadata?.name)),
      (ready) => spec.nodes.every((name) => ready.has(name)),
      spec.timeoutMs,
      POLL_INTERVAL_MS,
      exitEndsWait([started]),
    );
  });
}

export function isReady(node: V1Node): boolean {
  return node.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;
}
