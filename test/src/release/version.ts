// The release's version has one home, the root package.json. Everything else that names it (each workspace package,
// the chart's version and appVersion, the image tags in deploy/) must agree, and the release refuses to run when one
// does not: versionDisagreements says which, by file.
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parse } from 'yaml';
import { z } from 'zod';

const packageSchema = z.looseObject({ version: z.string().regex(/^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?$/, 'a semantic version') });
const chartSchema = z.looseObject({ version: z.string(), appVersion: z.string() });
const workspacesSchema = z.looseObject({ workspaces: z.array(z.string()) });

function readJson(file: string): unknown {
  return JSON.parse(readFileSync(file, 'utf8')) as unknown;
}

export function releaseVersion(repo: string): string {
  return packageSchema.parse(readJson(join(repo, 'package.json'))).version;
}

function workspaceDirs(repo: string): string[] {
  return workspacesSchema.parse(readJson(join(repo, 'package.json'))).workspaces.flatMap((pattern) => {
    if (!pattern.endsWith('/*')) return [join(repo, pattern)];
    const parent = join(repo, pattern.slice(0, -2));
    return readdirSync(parent, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => join(parent, entry.name));
  });
}

/** `<file>: <what> is <found>` for each place that names another version than `version`. */
export function versionDisagreements(repo: string, version: string): string[] {
  const found: { file: string; what: string; value: string }[] = [];
  for (const dir of workspaceDirs(repo)) {
    const file = join(dir, 'package.json');
    found.push({ file, what: 'version', value: packageSchema.parse(readJson(file)).version });
  }
  const chartFile = join(repo, 'charts', 'zk-oam', 'Chart.yaml');
  const chart = chartSchema.parse(parse(readFileSync(chartFile, 'utf8')));
  found.push({ file: chartFile, what: 'version', value: chart.version }, { file: chartFile, what: 'appVersion', value: chart.appVersion });
  for (const name of readdirSync(join(repo, 'deploy'))) {
    const file = join(repo, 'deploy', name, 'deployment.yaml');
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    for (const [, tag] of text.matchAll(/image: ghcr\.io\/zk-oam\/[a-z]+:(\S+)/g)) found.push({ file, what: 'image tag', value: tag ?? '' });
  }
  return found.filter(({ value }) => value !== version).map(({ file, what, value }) => `${relative(repo, file)}: ${what} is ${value}, not ${version}`);
}
