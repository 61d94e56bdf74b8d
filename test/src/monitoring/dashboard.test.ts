// The Grafana dashboard and the controllers' alerts read metrics the controllers really serve, with PromQL that
// Prometheus parses. A renamed metric or a typo in an expression fails here, not on someone's empty panel.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CONTROLLER_ALERTS, CONTROLLER_PANELS, ENSEMBLE_PANELS, grafanaDashboard } from '@zk-oam/apis';
import { createRuntimeMetrics, TraitStateMetrics } from '@zk-oam/runtime';
import { collectDefaultMetrics, Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { runCommand } from '../controllers/command.js';
import { repoRoot } from '../controllers/manifests.js';

let scratch = '';
beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'zkoam-dashboard-'));
});
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

/** The metric names a controller process registers: the runtime's, the traits' gauges and Node's process metrics. */
function controllerMetricNames(): Set<string> {
  const registry = new Registry();
  createRuntimeMetrics(registry);
  new TraitStateMetrics(registry, 'ScaleTrait');
  collectDefaultMetrics({ register: registry });
  return new Set(registry.getMetricsAsArray().map((metric) => metric.name));
}

const CONTROLLER_METRIC = /\b(?:controller_runtime|workqueue|leader_election|process|zookeeper_trait)_[a-z_]+\b/g;

/** Metric names an expression reads, with a histogram's series suffix taken off. */
function controllerMetricsRead(expr: string): string[] {
  return [...expr.matchAll(CONTROLLER_METRIC)].map(([name]) => name.replace(/_bucket$/, ''));
}

interface DashboardTarget {
  readonly expr: string;
}
interface DashboardPanel {
  readonly type: string;
  readonly title: string;
  readonly targets?: readonly DashboardTarget[];
}

describe('the Grafana dashboard', () => {
  const dashboard = JSON.parse(grafanaDashboard()) as { uid: string; panels: readonly DashboardPanel[] };
  const queries = dashboard.panels.flatMap((panel) => (panel.targets ?? []).map((target) => ({ title: panel.title, expr: target.expr })));

  it('is the file committed under deploy/monitoring, with one query per panel of both lists', async () => {
    expect(await readFile(join(repoRoot, 'deploy/monitoring/grafana-dashboard.json'), 'utf8')).toBe(grafanaDashboard());
    expect(queries.map((query) => query.title)).toEqual([...CONTROLLER_PANELS, ...ENSEMBLE_PANELS].map((panel) => panel.title));
  });

  it("has every query accepted by Prometheus's parser", async () => {
    const rules = join(scratch, 'dashboard.rules.yaml');
    const recordingRules = queries.map((query, index) => ({ record: `zk_oam_dashboard:panel_${String(index)}`, expr: query.expr }));
    await writeFile(rules, stringify({ groups: [{ name: 'dashboard', rules: recordingRules }] }));
    const { code, stdout, stderr } = await runCommand('promtool', ['check', 'rules', rules]);
    expect(code, `${stdout}\n${stderr}`).toBe(0);
    expect(stdout).toContain(`SUCCESS: ${String(queries.length)} rules found`);
  });

  it('reads only controller metrics a controller process registers', () => {
    const served = controllerMetricNames();
    const read = queries.flatMap((query) => controllerMetricsRead(query.expr));
    expect(read.length).toBeGreaterThan(CONTROLLER_PANELS.length - 1);
    expect(read.filter((name) => !served.has(name))).toEqual([]);
  });
});

describe("the controllers' alerts", () => {
  it('read only metrics a controller process registers', () => {
    const served = controllerMetricNames();
    const read = CONTROLLER_ALERTS.flatMap((rule) => controllerMetricsRead(rule.expr));
    expect(read.length).toBeGreaterThanOrEqual(CONTROLLER_ALERTS.length);
    expect(read.filter((name) => !served.has(name))).toEqual([]);
  });
});
