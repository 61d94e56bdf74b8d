// A Grafana dashboard for the controllers and the ensembles they run, written to deploy/monitoring/ by
// `npm run generate`. Every PromQL expression in it passes promtool's parser (test/src/monitoring/).

interface Panel {
  readonly title: string;
  readonly expr: string;
  readonly legend: string;
  readonly unit: string;
  readonly description: string;
}

const CONTROLLER_JOBS = 'job=~"zk-oam-.*"';

export const CONTROLLER_PANELS: readonly Panel[] = [
  { title: 'Reconciles', expr: 'sum by (controller, result) (rate(controller_runtime_reconcile_total[5m]))', legend: '{{controller}} {{result}}', unit: 'ops', description: 'Reconciles per second by controller and result; idle ensembles cost none.' },
  { title: 'Reconcile errors', expr: 'sum by (controller) (rate(controller_runtime_reconcile_errors_total[5m]))', legend: '{{controller}}', unit: 'ops', description: 'Failed reconciles per second; each failure is also a Warning Event on the object.' },
  { title: 'Reconcile time (p99)', expr: 'histogram_quantile(0.99, sum by (controller, le) (rate(controller_runtime_reconcile_time_seconds_bucket[5m])))', legend: '{{controller}}', unit: 's', description: 'How long one reconcile takes, 99th percentile.' },
  { title: 'Work queue depth', expr: 'max by (name) (workqueue_depth)', legend: '{{name}}', unit: 'short', description: 'Objects waiting to be reconciled.' },
  { title: 'Work queue wait (p99)', expr: 'histogram_quantile(0.99, sum by (name, le) (rate(workqueue_queue_duration_seconds_bucket[5m])))', legend: '{{name}}', unit: 's', description: 'How long an object waits in the queue before its reconcile starts.' },
  { title: 'Leader', expr: 'sum by (name) (leader_election_master_status)', legend: '{{name}}', unit: 'short', description: 'Replicas holding each leader Lease: exactly 1 when healthy.' },
  { title: 'Lease renewal interval (p99)', expr: 'histogram_quantile(0.99, sum by (name, le) (rate(leader_election_renew_interval_seconds_bucket[10m])))', legend: '{{name}}', unit: 's', description: 'Time between two renewals of the held Lease; leadership is lost past 10 s.' },
  { title: 'Resident memory', expr: `max by (job, instance) (process_resident_memory_bytes{${CONTROLLER_JOBS}})`, legend: '{{job}} {{instance}}', unit: 'bytes', description: 'Resident memory of each controller process.' },
  { title: 'CPU', expr: `sum by (job, instance) (rate(process_cpu_seconds_total{${CONTROLLER_JOBS}}[5m]))`, legend: '{{job}} {{instance}}', unit: 'percentunit', description: 'CPU of each controller process, in cores.' },
  { title: 'Blocked traits', expr: 'sum by (kind) (zookeeper_trait_blocked)', legend: '{{kind}}', unit: 'short', description: 'Scale and rolling traits that stopped and wait for a person.' },
];

export const ENSEMBLE_PANELS: readonly Panel[] = [
  { title: 'Leaders per ensemble', expr: 'count by (namespace, job) (leader_uptime)', legend: '{{namespace}}/{{job}}', unit: 'short', description: 'Members that lead: exactly 1 when the ensemble accepts writes.' },
  { title: 'Synced voters', expr: 'max by (namespace, job) (synced_followers - synced_non_voting_followers)', legend: '{{namespace}}/{{job}}', unit: 'short', description: 'Followers that vote and are synced with the leader.' },
  { title: 'Average latency', expr: 'max by (namespace, job, pod) (avg_latency)', legend: '{{namespace}} {{pod}}', unit: 'ms', description: 'Average request latency per member.' },
  { title: 'Outstanding requests', expr: 'max by (namespace, job, pod) (outstanding_requests)', legend: '{{namespace}} {{pod}}', unit: 'short', description: 'Requests queued per member.' },
  { title: 'Znodes', expr: 'max by (namespace, job) (znode_count)', legend: '{{namespace}}/{{job}}', unit: 'short', description: 'Nodes in the data tree.' },
  { title: 'Client connections', expr: 'sum by (namespace, job) (num_alive_connections)', legend: '{{namespace}}/{{job}}', unit: 'short', description: 'Open client connections, all members together.' },
];

const DATASOURCE = { type: 'prometheus', uid: '${datasource}' };

function row(title: string, y: number, id: number): Record<string, unknown> {
  return { type: 'row', title, id, collapsed: false, gridPos: { h: 1, w: 24, x: 0, y }, panels: [] };
}

function panels(list: readonly Panel[], top: number, firstId: number): Record<string, unknown>[] {
  return list.map((panel, index) => ({
    type: 'timeseries',
    id: firstId + index,
    title: panel.title,
    description: panel.description,
    datasource: DATASOURCE,
    gridPos: { h: 8, w: 8, x: (index % 3) * 8, y: top + Math.floor(index / 3) * 8 },
    fieldConfig: { defaults: { unit: panel.unit }, overrides: [] },
    options: { legend: { displayMode: 'list', placement: 'bottom' }, tooltip: { mode: 'multi' } },
    targets: [{ refId: 'A', datasource: DATASOURCE, expr: panel.expr, legendFormat: panel.legend }],
  }));
}

/** The dashboard as Grafana imports it (JSON model, schema version 39). */
export function grafanaDashboard(): string {
  const controllerRows = Math.ceil(CONTROLLER_PANELS.length / 3) * 8;
  const dashboard = {
    title: 'zk-oam',
    uid: 'zk-oam',
    description: 'The zk-oam controllers and the ZooKeeper ensembles they run. Generated by npm run generate (apis/src/monitoring/dashboard.ts).',
    tags: ['zookeeper', 'zk-oam'],
    schemaVersion: 39,
    version: 1,
    editable: true,
    time: { from: 'now-6h', to: 'now' },
    refresh: '30s',
    templating: { list: [{ name: 'datasource', label: 'Prometheus', type: 'datasource', query: 'prometheus' }] },
    panels: [
      row('Controllers', 0, 1),
      ...panels(CONTROLLER_PANELS, 1, 2),
      row('ZooKeeper ensembles (spec.metrics.enabled)', 1 + controllerRows, 100),
      ...panels(ENSEMBLE_PANELS, 2 + controllerRows, 101),
    ],
  };
  return `${JSON.stringify(dashboard, null, 2)}\n`;
}
