// The workload controller as a process with only deploy/workload RBAC, against real ZooKeeper on the bed: a workload
// becomes a Ready ensemble whose status agrees with srvr; a killed member is reported and recovers; a zoo.cfg change
// rolls the pods one at a time; a replicas change without a scale trait is refused. One controller for the file.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { AppsV1Api, type V1Pod } from '@kubernetes/client-node';
import { derivedNames, memberSelectorOf, statefulSetNameOf, ZOOKEEPER_PORTS, type ZookeeperWorkload } from '@zk-oam/apis';
import { fourLetterWord, parseSrvr } from '@zk-oam/zookeeper';
import { describe, expect, it } from 'vitest';
import { bedWorkloadSpec, condition, eventsAbout, eventSentences, isReady, kubectl, useWorkloadController, waitControllerReady, waitFor } from '../src/controllers/index.js';
import { workerBed } from '../src/worker-bed.js';
import { PooledKubeConfig } from '@zk-oam/runtime';

const bed = workerBed();
const suite = useWorkloadController(bed, { namespacePrefix: 'wl-ctrl' });
const { client, namespace } = suite;
const kubeConfig = new PooledKubeConfig();
kubeConfig.loadFromFile(bed.kubeconfig);
const apps = kubeConfig.makeApiClient(AppsV1Api);
const name = 'zk';
const selector = memberSelectorOf(name);
const ENSEMBLE_TIMEOUT_MS = 420_000;

async function memberPods(): Promise<V1Pod[]> {
  return (await client.core.listNamespacedPod({ namespace, labelSelector: selector })).items;
}

function podReady(pod: V1Pod): boolean {
  return pod.status?.conditions?.some((entry) => entry.type === 'Ready' && entry.status === 'True') ?? false;
}

/** Ready, with a leader and every member synced: what a healthy 3-member ensemble looks like in status. */
function healthy(workload: ZookeeperWorkload, members = 3): boolean {
  const status = workload.status;
  return (
    isReady(workload) &&
    status?.phase === 'Running' &&
    status.leader !== undefined &&
    status.members?.length === members &&
    status.members.every((member) => member.synced)
  );
}

async function waitHealthy(what: string): Promise<ZookeeperWorkload> {
  return waitFor(what, () => client.get(namespace, name), (workload) => healthy(workload), ENSEMBLE_TIMEOUT_MS);
}

describe('the workload controller on the bed', () => {
  it('brings a 3-member workload to Ready, naming the leader srvr reports and two synced followers', async () => {
    await client.create(namespace, name, bedWorkloadSpec());

    const workload = await waitHealthy('the workload to be Ready with a leader and 3 synced members');

    const pods = await memberPods();
    const modes = await Promise.all(
      pods.map(async (pod) => [pod.metadata?.name ?? '', parseSrvr(await fourLetterWord(pod.status?.podIP ?? '', ZOOKEEPER_PORTS.client, 'srvr')).mode] as const),
    );
    const leaders = modes.filter(([, mode]) => mode === 'leader').map(([pod]) => pod);
    expect(leaders).toEqual([workload.status?.leader]);
    expect(modes.filter(([, mode]) => mode === 'follower')).toHaveLength(2);
    const roles = Object.fromEntries((workload.status?.members ?? []).map((member) => [member.pod, member.role]));
    expect(roles).toEqual(Object.fromEntries(modes));

    const row = await kubectl(bed, ['get', 'zkw', name, '-n', namespace, '--no-headers']);
    expect(row.trim().split(/\s+/).slice(0, 6)).toEqual([name, '3', '3', '3', workload.status?.leader, 'Running']);
    const notes = eventSentences(await eventsAbout(client, namespace, name));
    expect(notes).toEqual(expect.arrayContaining([`Created StatefulSet ${name}`, `Created ConfigMap ${derivedNames(name).configMap}`]));
  });

  it('reports a killed ZooKeeper process as Degraded naming its pod, then recovers on its own', async () => {
    const before = await waitHealthy('a healthy ensemble');
    const victim = (before.status?.members ?? []).find((member) => member.role === 'follower')?.pod;
    if (victim === undefined) throw new Error('no follower to kill');
    const pid = Number((await readFile(join(bed.dir, 'agent', 'pids', `${namespace}_${victim}`), 'utf8')).trim());
    const environ = await readFile(`/proc/${String(pid)}/environ`, 'utf8');
    expect(environ).toContain('ZK_OAM_BED_POD_DIR=');

    process.kill(pid, 'SIGKILL');

    const degraded = await waitFor(
      `Degraded naming ${victim}`,
      () => client.get(namespace, name),
      (workload) => workload.status?.phase === 'Degraded' && (condition(workload, 'Degraded')?.message.includes(victim) ?? false),
      120_000,
    );
    expect(condition(degraded, 'Degraded')?.status).toBe('True');
    const after = await waitHealthy('the ensemble to recover after the agent restarts the process');
    expect(after.status?.members?.find((member) => member.pod === victim)?.synced).toBe(true);
  });

  it('rolls the pods one at a time when a zoo.cfg tunable changes, and conf on every member shows it', async () => {
    await waitHealthy('a healthy ensemble');
    const oldUids = new Set((await memberPods()).map((pod) => pod.metadata?.uid));
    let mostInReplacement = 0;

    await client.patch(namespace, name, { spec: { config: { tickTime: 2500 } } });

    const rolled = await waitFor(
      'every pod replaced and Ready',
      async () => {
        const pods = await memberPods();
        // Pods being replaced: terminating, gone, or replaced and not Ready yet. A member whose readiness dips while
        // the others elect a leader is not being rolled, so it does not count.
        const settled = pods.filter((pod) => pod.metadata?.deletionTimestamp === undefined && (oldUids.has(pod.metadata?.uid) || podReady(pod)));
        mostInReplacement = Math.max(mostInReplacement, 3 - settled.length);
        return pods;
      },
      (pods) => pods.length === 3 && pods.every((pod) => podReady(pod) && !oldUids.has(pod.metadata?.uid)),
      ENSEMBLE_TIMEOUT_MS,
    );
    expect(mostInReplacement).toBe(1);
    for (const pod of rolled) {
      expect(await fourLetterWord(pod.status?.podIP ?? '', ZOOKEEPER_PORTS.client, 'conf')).toMatch(/^tickTime=2500$/m);
    }
    await waitHealthy('the rolled ensemble to be Ready');
    const notes = eventSentences(await eventsAbout(client, namespace, name));
    expect(notes).toContain(`Updated ConfigMap ${derivedNames(name).configMap} (zoo.cfg changed: pods will roll)`);
  });

  it('refuses a spec.replicas change without a scale trait, with a condition and an Event, and keeps the StatefulSet', async () => {
    await waitHealthy('a healthy ensemble');
    const expected = 'spec.replicas changed from 3 to 5; membership changes need a ZookeeperScale trait (scale.zookeeper.zkoam.dev) bound to this workload; kept 3';

    await client.patch(namespace, name, { spec: { replicas: 5 } });

    const refused = await waitFor('the ScaleRefused condition', () => client.get(namespace, name), (w) => condition(w, 'ScaleRefused') !== undefined, 60_000);
    expect(condition(refused, 'ScaleRefused')).toMatchObject({ status: 'True', reason: 'ScaleTraitRequired', message: expected });
    const warning = await waitFor('the Warning Event', () => eventsAbout(client, namespace, name), (events) => events.some((e) => e.reason === 'ScaleTraitRequired'), 30_000);
    expect(warning.find((e) => e.reason === 'ScaleTraitRequired')).toMatchObject({ type: 'Warning', note: expected });
    expect((await apps.readNamespacedStatefulSet({ namespace, name: statefulSetNameOf(name) })).spec?.replicas).toBe(3);
    expect(await memberPods()).toHaveLength(3);

    await client.patch(namespace, name, { spec: { replicas: 3 } });
    await waitFor('the refusal to clear', () => client.get(namespace, name), (w) => condition(w, 'ScaleRefused') === undefined && healthy(w), 60_000);
  });

  it('generates the superuser Secret once and keeps it as it is across a controller restart', async () => {
    const secretName = `${derivedNames(name).defaultSuperuserSecret}`;
    const before = await client.core.readNamespacedSecret({ namespace, name: secretName });
    expect(Object.keys(before.data ?? {}).sort()).toEqual(['digest', 'password']);
    expect(before.metadata?.ownerReferences?.[0]).toMatchObject({ kind: 'ZookeeperWorkload', name, controller: true });

    await suite.controller().restart();
    await waitControllerReady(suite.controller());
    await waitFor(
      'the restarted controller to reconcile',
      async () => (await fetch(`http://127.0.0.1:${String(suite.controller().metricsPort)}/metrics`)).text(),
      (metrics) => /^controller_runtime_reconcile_total\{[^}]*\} [1-9]/m.test(metrics),
      60_000,
    );

    const after = await client.core.readNamespacedSecret({ namespace, name: secretName });
    expect(after.data).toEqual(before.data);
    expect(after.metadata?.resourceVersion).toBe(before.metadata?.resourceVersion);
  });
});
