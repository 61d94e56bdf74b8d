// PrometheusRule `<name>`: alerts on ZooKeeper's own Prometheus metrics (mntr's names without the zk_ prefix).
import type { ZookeeperWorkload } from '@zk-oam/apis';
import { childMetadata, workloadNames } from './identity.js';
import { MONITORING_API_VERSION, type AlertingRule, type PrometheusRule } from './monitoring-types.js';

/** Latency (ms) above which clients notice; ZooKeeper answers in single-digit ms when healthy. */
export const HIGH_LATENCY_MS = 100;
/** Queued requests above which the server is not keeping up. */
export const OUTSTANDING_REQUESTS_LIMIT = 10;

export function buildPrometheusRule(workload: ZookeeperWorkload): PrometheusRule {
  const names = workloadNames(workload);
  // The ServiceMonitor's job label is the name of the scraped Service.
  const series = `namespace="${names.namespace}",job="${names.headlessService}"`;
  const ensemble = `${names.namespace}/${names.workload}`;
  const rules: AlertingRule[] = [
    {
      alert: 'ZookeeperNoLeader',
      // Only the leader exports leader_uptime.
      expr: `absent(leader_uptime{${series}})`,
      for: '1m',
      labels: { severity: 'critical' },
      annotations: {
        summary: `ZooKeeper ${ensemble} has no leader`,
        description: 'No member reports leading: the ensemble has lost its quorum and refuses writes.',
      },
    },
    {
      alert: 'ZookeeperMemberDown',
      // Voters other than the leader that are not synced with it; synced_followers counts non-voting followers too.
      expr:
        `max(quorum_size{${series}}) - 1 - ` +
        `(max(synced_followers{${series}}) - max(synced_non_voting_followers{${series}})) > 0`,
      for: '2m',
      labels: { severity: 'warning' },
      annotations: {
        summary: `ZooKeeper ${ensemble} has voting members down or out of sync`,
        description: '{{ $value }} voting member(s) are not synced with the leader; one more failure may cost the quorum.',
      },
    },
    {
      alert: 'ZookeeperHighLatency',
      expr: `avg_latency{${series}} > ${HIGH_LATENCY_MS}`,
      for: '5m',
      labels: { severity: 'warning' },
      annotations: {
        summary: `ZooKeeper ${ensemble} answers slowly`,
        description: `Member {{ $labels.pod }} averages {{ $value }} ms per request (above ${HIGH_LATENCY_MS} ms).`,
      },
    },
    {
      alert: 'ZookeeperOutstandingRequests',
      expr: `outstanding_requests{${series}} > ${OUTSTANDING_REQUESTS_LIMIT}`,
      for: '5m',
      labels: { severity: 'warning' },
      annotations: {
        summary: `ZooKeeper ${ensemble} is not keeping up with requests`,
        description: `Member {{ $labels.pod }} has {{ $value }} requests queued (above ${OUTSTANDING_REQUESTS_LIMIT}).`,
      },
    },
  ];
  return {
    apiVersion: MONITORING_API_VERSION,
    kind: 'PrometheusRule',
    metadata: childMetadata(workload, names.prometheusRule),
    spec: { groups: [{ name: `zookeeper.${names.namespace}.${names.workload}`, rules }] },
  };
}
