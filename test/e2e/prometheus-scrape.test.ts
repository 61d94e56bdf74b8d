// The controllers as Prometheus sees them: a real Prometheus (Debian's) scrapes every controller pod at the addresses
// its shipped metrics Service selects, finds controller-runtime's reconcile, work-queue and leader-election series
// for every controller, evaluates the shipped alert rules without error (none firing on healthy controllers) and
// answers every controller query of the shipped dashboard. Debian's Prometheus has no Kubernetes service discovery,
// so the targets are what its endpointslice discovery would find: the ready endpoints of each `<controller>-metrics`
// Service, on its http-metrics port, labelled job and pod.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CONTROLLER_ALERTS, CONTROLLER_PANELS } from '@zk-oam/apis';
import { DiscoveryV1Api } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTROLLER_NAMES } from '../src/bed/controller-images.js';
import { ControllerPods } from '../src/controllers/controller-pods.js';
import { CONTROLLER_NAMESPACE } from '../src/controllers/controller-process.js';
import { repoRoot, waitFor } from '../src/controllers/index.js';
import { startPrometheus, type EvaluatedRule, type RunningPrometheus, type Sample, type TargetGroup } from '../src/monitoring/prometheus.js';
import { workerBed } from '../src/worker-bed.js';
import { PooledKubeConfig } from '@zk-oam/runtime';

const bed = workerBed();
const controllers = new ControllerPods(bed);
let prometheus: RunningPrometheus | undefined;
let scratch = '';

function running(): RunningPrometheus {
  if (prometheus === undefined) throw new Error('Prometheus did not start');
  return prometheus;
}

const labelValues = (samples: readonly Sample[], label: string): string[] => [...new Set(samples.map((sample) => sample.metric[label] ?? ''))].sort();
const sortedNames = [...CONTROLLER_NAMES].sort();
/** Each process's reconcilers by their `controller` label: the appconfig process also runs component-revisions. */
const reconcilerNames = [...CONTROLLER_NAMES, 'component-revisions'].sort();

/**
 * The scrape targets of one controller, as Kubernetes service discovery finds them behind its metrics Service: the
 * ready endpoints of the Service's EndpointSlices (kube-controller-manager keeps them), on its http-metrics port.
 */
async function metricsTargets(name: string): Promise<TargetGroup[]> {
  const kubeConfig = new PooledKubeConfig();
  kubeConfig.loadFromFile(bed.kubeconfig);
  const discovery = kubeConfig.makeApiClient(DiscoveryV1Api);
  const { items } = await discovery.listNamespacedEndpointSlice({ namespace: CONTROLLER_NAMESPACE, labelSelector: `kubernetes.io/service-name=zk-oam-${name}-metrics` });
  return items.flatMap((slice) => {
    const port = slice.ports?.find((candidate) => candidate.name === 'http-metrics')?.port;
    return (slice.endpoints ?? [])
      .filter((endpoint) => endpoint.conditions?.ready === true && port !== undefined)
      .flatMap((endpoint) => endpoint.addresses.map((address) => ({ targets: [`${address}:${String(port)}`], labels: { job: `zk-oam-${name}`, pod: endpoint.targetRef?.name ?? '' } })));
  });
}

beforeAll(async () => {
  await controllers.install(CONTROLLER_NAMES);
  for (const name of CONTROLLER_NAMES) await controllers.waitReady(name);
  scratch = await mkdtemp(join(tmpdir(), 'zkoam-prometheus-'));
  const replicas = 2;
  const targets = await waitFor(
    'every controller pod behind its metrics Service',
    async () => (await Promise.all(CONTROLLER_NAMES.map((name) => metricsTargets(name)))).flat(),
    (groups) => groups.length === replicas * CONTROLLER_NAMES.length,
    60_000,
  );
  prometheus = await startPrometheus(scratch, targets, [join(repoRoot, 'deploy/monitoring/controller-alerts.rules.yaml')]);
});

afterAll(async () => {
  await prometheus?.stop();
  await controllers.uninstall(CONTROLLER_NAMES);
  await rm(scratch, { recursive: true, force: true });
});

describe('Prometheus scraping the controllers', () => {
  it('scrapes every controller pod its metrics Service selects, each one up', async () => {
    const pods = (await Promise.all(CONTROLLER_NAMES.map((name) => controllers.pods(name)))).flat().map((pod) => pod.name).sort();
    expect(pods).toHaveLength(2 * CONTROLLER_NAMES.length);
    const targets = await waitFor(
      `a healthy target for each of ${pods.join(', ')}`,
      () => running().targets(),
      (found) => found.length === pods.length && found.every((target) => target.health === 'up'),
      60_000,
      1_000,
    );
    expect(targets.map((target) => target.labels['pod']).sort()).toEqual(pods);
    expect([...new Set(targets.map((target) => target.labels['job']))].sort()).toEqual(sortedNames.map((name) => `zk-oam-${name}`));
  });

  it("has every controller's reconcile, work-queue and leader series, under controller-runtime's names", async () => {
    const everyController = (samples: readonly Sample[], label: string) => labelValues(samples, label).join() === reconcilerNames.join();
    const reconciles = await waitFor('reconcile counters of every controller', () => running().query('controller_runtime_reconcile_total'), (samples) => everyController(samples, 'controller'), 30_000);
    expect(labelValues(reconciles, 'result')).toEqual(['error', 'requeue_after', 'success']);
    expect(labelValues(await running().query('controller_runtime_reconcile_errors_total'), 'controller')).toEqual(reconcilerNames);
    expect(labelValues(await running().query('workqueue_depth'), 'name')).toEqual(reconcilerNames);
    // One replica of each leads, the other stands by.
    const leaders = await running().query('sum by (job) (leader_election_master_status)');
    expect(leaders.map((sample) => [sample.metric['job'], sample.value[1]]).sort()).toEqual(sortedNames.map((name) => [`zk-oam-${name}`, '1']));
  });

  it('evaluates the shipped alert rules without error, none firing while the controllers are healthy', async () => {
    // Rules evaluate every 2 s from the controllers' start, so one may still be pending from before the Leases were
    // taken; a healthy system clears it at the next evaluation, a rule that stays pending or firing fails here.
    const settled = (found: readonly EvaluatedRule[]): boolean =>
      found.length === CONTROLLER_ALERTS.length && found.every((rule) => rule.health !== 'unknown' && rule.state === 'inactive');
    const rules = await waitFor('every alert rule evaluated and inactive', () => running().rules(), settled, 30_000).catch(() => running().rules());
    for (const rule of rules) {
      expect(rule.health, `${rule.name}: ${rule.lastError ?? ''}`).toBe('ok');
      expect(rule.state, rule.name).toBe('inactive');
    }
  });

  it("answers every controller query of the shipped dashboard, with a series per controller where every process has one", async () => {
    for (const panel of CONTROLLER_PANELS) await running().query(panel.expr);
    const [leader, memory] = await Promise.all(
      ['Leader', 'Resident memory'].map((title) => running().query(CONTROLLER_PANELS.find((panel) => panel.title === title)?.expr ?? '')),
    );
    expect(labelValues(leader ?? [], 'name')).toHaveLength(CONTROLLER_NAMES.length);
    expect(memory).toHaveLength(2 * CONTROLLER_NAMES.length);
  });
});
