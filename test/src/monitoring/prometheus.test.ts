// The bed's Prometheus configuration is one Debian's Prometheus accepts, with the shipped rules loaded.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCommand } from '../controllers/command.js';
import { repoRoot } from '../controllers/manifests.js';
import { renderPrometheusConfig } from './prometheus.js';

describe('renderPrometheusConfig', () => {
  it('passes promtool check config, file_sd targets and the controllers\' alert rules included', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'zkoam-prometheus-config-'));
    try {
      const targetsFile = join(dir, 'targets.json');
      await writeFile(targetsFile, JSON.stringify([{ targets: ['127.0.0.2:8080'], labels: { job: 'zk-oam-workload', pod: 'p' } }]));
      const config = join(dir, 'prometheus.yml');
      await writeFile(config, renderPrometheusConfig({ targetsFile, ruleFiles: [join(repoRoot, 'deploy/monitoring/controller-alerts.rules.yaml')] }));
      const { code, stdout, stderr } = await runCommand('promtool', ['check', 'config', config]);
      expect(code, `${stdout}\n${stderr}`).toBe(0);
      expect(stdout).toContain('SUCCESS: 6 rules found');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
