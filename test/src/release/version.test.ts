import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../bed/paths.js';
import { releaseVersion, versionDisagreements } from './version.js';

describe('the release version', () => {
  it('is named the same by every package, the chart and the image tags in deploy/', () => {
    const repo = repoRoot();
    expect(versionDisagreements(repo, releaseVersion(repo))).toStrictEqual([]);
  });

  it('names each place that disagrees, by file', () => {
    const copy = mkdtempSync(join(tmpdir(), 'zkoam-version-'));
    try {
      const repo = repoRoot();
      for (const path of ['package.json', 'charts/zk-oam/Chart.yaml', 'deploy', 'apis/package.json', 'console/package.json', 'test/package.json', 'controllers']) {
        cpSync(join(repo, path), join(copy, path), { recursive: true, filter: (source) => !source.includes('node_modules') && !source.includes('/dist') && !source.includes('/src') });
      }
      const chart = join(copy, 'charts/zk-oam/Chart.yaml');
      writeFileSync(chart, readFileSync(chart, 'utf8').replace(/^appVersion: .*$/m, 'appVersion: "9.9.9"'));
      expect(versionDisagreements(copy, releaseVersion(copy))).toStrictEqual([`charts/zk-oam/Chart.yaml: appVersion is 9.9.9, not ${releaseVersion(repo)}`]);
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  });
});
