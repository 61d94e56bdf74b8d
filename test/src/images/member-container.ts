// The first member of a one-member ensemble, prepared as a kubelet would start it in a container: the workload
// controller's pure renderer gives the ConfigMap (start.sh, zoo.cfg, the initial membership) and the container
// (command, env, volume mounts); here they become files, variables and bind mounts for runc. The pod's IP is a free
// loopback address and the container shares the host's network, so the member's ports bind that address alone.
import { randomInt, randomUUID } from 'node:crypto';
import { chown, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { V1Container, V1Pod } from '@kubernetes/client-node';
import { parseResource, podName, SUPERUSER_SECRET_KEYS, ZOOKEEPER_PORTS, ZOOKEEPER_WORKLOAD, zookeeperWorkloadSchema } from '@zk-oam/apis';
import { renderWorkload, workloadNames } from '@zk-oam/workload';
import { superDigest } from '@zk-oam/zookeeper';
import { portFree } from '../bed/ports.js';
import { resolveEnv } from '../agent/pod-env.js';
import { renderPodHosts } from '../agent/pod-dns.js';
import type { BindMount, RunOptions } from '../containers/runtime-spec.js';

export interface MemberContainer {
  /** The container's command, environment and mounts. */
  readonly run: RunOptions;
  readonly podIp: string;
  /** The host directory mounted as the member's data volume. */
  readonly volume: string;
}

/** A random loopback address (127.64.0.0/10) on which every ZooKeeper port is free. */
async function freeLoopbackAddress(): Promise<string> {
  for (let attempt = 0; attempt < 20; attempt++) {
    const address = `127.${String(randomInt(64, 128))}.${String(randomInt(0, 256))}.${String(randomInt(1, 255))}`;
    const free = await Promise.all(Object.values(ZOOKEEPER_PORTS).map((port) => portFree(address, port)));
    if (free.every(Boolean)) return address;
  }
  throw new Error('no loopback address with the ZooKeeper ports free in 20 tries');
}

function memberContainer(pod: V1Pod): V1Container {
  const container = pod.spec?.containers[0];
  if (container === undefined) throw new Error('the rendered pod template has no container');
  return container;
}

/**
 * Renders a one-member workload and lays out member 0 under `dir`: the ConfigMap's files (mounted read-only), the data
 * volume (owned by `owner`, the image's user, as fsGroup would make it writable) and /etc/hosts with the pod's names.
 */
export async function prepareMember(dir: string, owner: { uid: number; gid: number }): Promise<MemberContainer> {
  const workload = parseResource(
    zookeeperWorkloadSchema,
    { apiVersion: ZOOKEEPER_WORKLOAD.apiVersion, kind: ZOOKEEPER_WORKLOAD.kind, metadata: { name: 'zk', namespace: 'images', uid: randomUUID() }, spec: { replicas: 1 } },
    'one-member workload',
  );
  const rendered = renderWorkload({
    workload,
    replicas: 1,
    initialMembers: 1,
    quorumTls: 'Plain',
    updateStrategy: 'RollingUpdate',
    monitoringCrdsPresent: false,
    certificateFingerprint: undefined,
    trustBundleHash: undefined,
    saslRevision: undefined,
    clientCaDigest: undefined,
    clientsAdmitted: true,
  });
  const { statefulSet, configMap } = rendered;
  const names = workloadNames(workload);
  const namespace = names.namespace;
  const name = podName(names.statefulSet, 0);
  const subdomain = statefulSet.spec?.serviceName ?? '';
  const pod: V1Pod = { metadata: { name, namespace }, spec: { ...statefulSet.spec?.template.spec, containers: statefulSet.spec?.template.spec?.containers ?? [], hostname: name, subdomain } };
  const container = memberContainer(pod);
  const podIp = await freeLoopbackAddress();

  const config = join(dir, 'config');
  const volume = join(dir, 'volume');
  const hosts = join(dir, 'hosts');
  await mkdir(config, { recursive: true });
  for (const [file, text] of Object.entries(configMap.data ?? {})) await writeFile(join(config, file), text);
  await mkdir(volume);
  await chown(volume, owner.uid, owner.gid);
  await writeFile(hosts, renderPodHosts(pod, podIp));

  const secrets = new Map([[names.superuserSecret, { [SUPERUSER_SECRET_KEYS.digest]: superDigest(randomUUID()) }]]);
  const env = resolveEnv(pod, container, { configMaps: new Map(), secrets }, { podIP: podIp, hostIP: '127.0.0.1', nodeAllocatable: {} });
  const sources = new Map([
    ['config', config],
    ['data', volume],
  ]);
  const mounts: BindMount[] = (container.volumeMounts ?? []).map((mount) => {
    const source = sources.get(mount.name);
    if (source === undefined) throw new Error(`no host directory for the volume ${mount.name} of a one-member workload`);
    return { source, destination: mount.mountPath, readOnly: mount.readOnly === true };
  });
  // The kubelet's /etc/hosts names the pod by its FQDN: how the member finds its own address in its server line.
  mounts.push({ source: hosts, destination: '/etc/hosts', readOnly: true });
  return { run: { args: [...(container.command ?? []), ...(container.args ?? [])], env, mounts }, podIp, volume };
}
