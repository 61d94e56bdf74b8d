// Alerts that are known to work: every rule passes `promtool check rules`, and `promtool test rules` (Debian's
// prometheus package, installed by the bootstrap) shows each alert firing on series that should trigger it and quiet on
// series that should not. The controllers' own alerts are in deploy/monitoring/; the ensemble alerts are the
// PrometheusRule the workload controller renders for a workload with metrics on.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { derivedNames, parseResource, ZOOKEEPER_WORKLOAD, zookeeperWorkloadSchema } from '@zk-oam/apis';
import { renderWorkload } from '@zk-oam/workload';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { runCommand } from '../controllers/command.js';
import { repoRoot } from '../controllers/manifests.js';

let scratch = '';
beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'zkoam-alerts-'));
});
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

async function promtool(...args: string[]): Promise<string> {
  const { code, stdout, stderr } = await runCommand('promtool', args);
  expect(code, `promtool ${args.join(' ')}:\n${stdout}\n${stderr}`).toBe(0);
  return stdout;
}

function ensembleRuleGroups(): unknown {
  const workload = parseResource(
    zookeeperWorkloadSchema,
    { apiVersion: ZOOKEEPER_WORKLOAD.apiVersion, kind: ZOOKEEPER_WORKLOAD.kind, metadata: { name: 'zk', namespace: 'prod', uid: 'u-1' }, spec: { metrics: { enabled: true } } },
    'workload with metrics',
  );
  const rendered = renderWorkload({ workload, replicas: 3, initialMembers: 3, quorumTls: 'Plain', updateStrategy: 'RollingUpdate', monitoringCrdsPresent: true, certificateFingerprint: undefined, trustBundleHash: undefined, saslRevision: undefined, clientCaDigest: undefined, clientsAdmitted: true });
  const rule = rendered.prometheusRule;
  if (rule === undefined) throw new Error('no PrometheusRule rendered with metrics on and the monitoring CRDs present');
  return rule.spec.groups;
}

/** Prometheus names the scrape job after the Service the ServiceMonitor finds the members by: the headless one. */
const JOB = derivedNames('zk').headlessService;
const series = (name: string, labels: string, values: string) => ({ series: `${name}{namespace="prod",job="${JOB}"${labels}}`, values });

describe('alert rules', () => {
  it("the controllers' alerts (deploy/monitoring) pass promtool's checks and its tests", async () => {
    expect(await promtool('check', 'rules', join(repoRoot, 'deploy/monitoring/controller-alerts.rules.yaml'))).toContain('SUCCESS: 6 rules found');
    expect(await promtool('test', 'rules', join(repoRoot, 'test/src/monitoring/controller-alerts.promtool.yaml'))).toContain('SUCCESS');
  });

  it('the ensemble alerts the workload controller renders fire on a failing ensemble and stay quiet on a healthy one', async () => {
    const rules = join(scratch, 'ensemble.rules.yaml');
    await writeFile(rules, stringify({ groups: ensembleRuleGroups() }));
    expect(await promtool('check', 'rules', rules)).toContain('SUCCESS: 4 rules found');
    const quiet = ['ZookeeperNoLeader', 'ZookeeperMemberDown', 'ZookeeperHighLatency', 'ZookeeperOutstandingRequests'].map((alertname) => ({ eval_time: '10m', alertname, exp_alerts: [] }));
    const healthy = {
      name: 'a healthy ensemble',
      interval: '1m',
      input_series: [
        series('leader_uptime', ',pod="zk-0"', '1000+60x15'),
        series('quorum_size', ',pod="zk-0"', '3x15'),
        series('synced_followers', ',pod="zk-0"', '2x15'),
        series('synced_non_voting_followers', ',pod="zk-0"', '0x15'),
        series('avg_latency', ',pod="zk-1"', '2x15'),
        series('outstanding_requests', ',pod="zk-1"', '0x15'),
      ],
      alert_rule_test: quiet,
    };
    const failing = {
      name: 'an ensemble without a leader, a voter out of sync, slow and backed up',
      interval: '1m',
      input_series: [
        series('quorum_size', ',pod="zk-0"', '3x15'),
        series('synced_followers', ',pod="zk-0"', '1x15'),
        series('synced_non_voting_followers', ',pod="zk-0"', '0x15'),
        series('avg_latency', ',pod="zk-1"', '250x15'),
        series('outstanding_requests', ',pod="zk-1"', '50x15'),
      ],
      alert_rule_test: [
        {
          eval_time: '10m',
          alertname: 'ZookeeperNoLeader',
          exp_alerts: [
            {
              exp_labels: { severity: 'critical', namespace: 'prod', job: JOB },
              exp_annotations: {
                summary: 'ZooKeeper prod/zk has no leader',
                description: 'No member reports leading: the ensemble has lost its quorum and refuses writes.',
              },
            },
          ],
        },
        {
          eval_time: '10m',
          alertname: 'ZookeeperMemberDown',
          exp_alerts: [
            {
              exp_labels: { severity: 'warning' },
              exp_annotations: {
                summary: 'ZooKeeper prod/zk has voting members down or out of sync',
                description: '1 voting member(s) are not synced with the leader; one more failure may cost the quorum.',
              },
            },
          ],
        },
        {
          eval_time: '10m',
          alertname: 'ZookeeperHighLatency',
          exp_alerts: [
            {
              exp_labels: { severity: 'warning', namespace: 'prod', job: JOB, pod: 'zk-1' },
              exp_annotations: { summary: 'ZooKeeper prod/zk answers slowly', description: 'Member zk-1 averages 250 ms per request (above 100 ms).' },
            },
          ],
        },
        {
          eval_time: '10m',
          alertname: 'ZookeeperOutstandingRequests',
          exp_alerts: [
            {
              exp_labels: { severity: 'warning', namespace: 'prod', job: JOB, pod: 'zk-1' },
              exp_annotations: { summary: 'ZooKeeper prod/zk is not keeping up with requests', description: 'Member zk-1 has 50 requests queued (above 10).' },
            },
          ],
        },
        // Not before its `for`: a leader lost for under a minute is an election, not an outage.
        { eval_time: '30s', alertname: 'ZookeeperNoLeader', exp_alerts: [] },
      ],
    };
    const tests = join(scratch, 'ensemble.promtool.yaml');
    await writeFile(tests, stringify({ rule_files: [rules], evaluation_interval: '1m', tests: [healthy, failing] }));
    expect(await promtool('test', 'rules', tests)).toContain('SUCCESS');
  });
});
