// Registers the bed's Nodes and keeps them Ready: node status heartbeat plus a Lease per node in kube-node-lease.
import { CoordinationV1Api, CoreV1Api, PatchStrategy, setHeaderOptions, type KubeConfig, type V1Node } from '@kubernetes/client-node';
import type { Logger } from 'pino';
import { pause } from '@zk-oam/runtime';
import { isConflict, isNotFound } from './api-errors.js';
import { leaseNamespace, renderLease, renderNode, renderNodeStatus } from './node-objects.js';

const heartbeatMs = 10_000;
/**
 * Like kubelet, the Lease is the frequent heartbeat; the full node status is re-sent only every few beats, less often than
 * kube-controller-manager's node-monitor-grace-period (50 s), which the Lease's renewals satisfy alone.
 */
const statusEveryBeats = 6;
const mergePatch = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);

/** Registers every node, then heartbeats until the signal aborts. Never throws: a failed beat is logged and retried. */
export async function runNodeHeartbeats(kubeConfig: KubeConfig, nodeNames: readonly string[], address: string, log: Logger, signal: AbortSignal): Promise<void> {
  const core = kubeConfig.makeApiClient(CoreV1Api);
  const coordination = kubeConfig.makeApiClient(CoordinationV1Api);
  const readySince = new Date();
  const statusDue = new Set<string>();
  for (let beat = 0; !signal.aborted; beat += 1) {
    if (beat % statusEveryBeats === 0) {
      nodeNames.forEach((name) => statusDue.add(name));
    }
    await Promise.all(
      nodeNames.map(async (name, index) => {
        const nodeLog = log.child({ node: name });
        try {
          const { node, created } = await ensureNode(core, name, index, nodeLog);
          if (created || statusDue.has(name)) {
            await core.patchNodeStatus({ name, body: { status: renderNodeStatus(name, address, new Date(), readySince) } }, mergePatch);
            statusDue.delete(name);
          }
          await renewLease(coordination, node, nodeLog);
        } catch (error) {
          nodeLog.error({ err: error }, 'node heartbeat failed; retrying next period');
        }
      }),
    );
    await pause(heartbeatMs, signal);
  }
}

async function ensureNode(core: CoreV1Api, name: string, index: number, log: Logger): Promise<{ node: V1Node; created: boolean }> {
  try {
    return { node: await core.readNode({ name }), created: false };
  } catch (error) {
    if (!isNotFound(error)) {
      throw error;
    }
  }
  log.info('registering node');
  try {
    return { node: await core.createNode({ body: renderNode(name, index) }), created: true };
  } catch (error) {
    if (isConflict(error)) {
      return { node: await core.readNode({ name }), created: false };
    }
    throw error;
  }
}

async function renewLease(coordination: CoordinationV1Api, node: V1Node, log: Logger): Promise<void> {
  const lease = renderLease(node, new Date());
  const name = lease.metadata?.name ?? '';
  try {
    await coordination.patchNamespacedLease({ name, namespace: leaseNamespace, body: { spec: lease.spec } }, mergePatch);
    return;
  } catch (error) {
    if (!isNotFound(error)) {
      throw error;
    }
  }
  log.info('creating node lease');
  await coordination.createNamespacedLease({ namespace: leaseNamespace, body: lease });
}
