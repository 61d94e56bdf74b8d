// A real Prometheus (Debian's) on loopback for bed tests: it scrapes the targets it is given and evaluates rule files.
// Debian builds Prometheus without Kubernetes service discovery, so targets come as file_sd groups, which the caller
// derives from the EndpointSlices of the Services a ServiceMonitor would select.
import { spawn } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { z } from 'zod';
import { freePort } from '../bed/ports.js';
import { LOCAL_POLL_INTERVAL_MS, waitFor } from '../wait-for.js';
import { pause } from '@zk-oam/runtime';

const PROMETHEUS_BINARY = '/usr/bin/prometheus';

/** One file_sd group: addresses and the labels their series get. */
export interface TargetGroup {
  readonly targets: readonly string[];
  readonly labels: Readonly<Record<string, string>>;
}

/** prometheus.yml: scrape the file_sd targets every 2 s and evaluate the rule files as often. */
export function renderPrometheusConfig(input: { readonly targetsFile: string; readonly ruleFiles: readonly string[] }): string {
  return stringify({
    global: { scrape_interval: '2s', scrape_timeout: '1s', evaluation_interval: '2s' },
    rule_files: input.ruleFiles,
    scrape_configs: [{ job_name: 'controllers', file_sd_configs: [{ files: [input.targetsFile] }] }],
  });
}

const sampleSchema = z.object({ metric: z.record(z.string(), z.string()), value: z.tuple([z.number(), z.string()]) });
export type Sample = z.infer<typeof sampleSchema>;
const targetSchema = z.object({ labels: z.record(z.string(), z.string()), health: z.string(), lastError: z.string() }).loose();
export type Target = z.infer<typeof targetSchema>;
const ruleSchema = z.object({ name: z.string(), health: z.string(), state: z.string().optional(), lastError: z.string().optional() }).loose();
export type EvaluatedRule = z.infer<typeof ruleSchema>;

export interface RunningPrometheus {
  readonly url: string;
  query(expr: string): Promise<Sample[]>;
  targets(): Promise<Target[]>;
  rules(): Promise<EvaluatedRule[]>;
  stop(): Promise<void>;
}

async function api<T>(url: string, schema: z.ZodType<T>): Promise<T> {
  const response = await fetch(url);
  const body = z.object({ status: z.string(), data: z.unknown(), error: z.string().optional() }).parse(await response.json());
  if (body.status !== 'success') throw new Error(`Prometheus refused ${url}: ${body.error ?? body.status}`);
  return schema.parse(body.data);
}

/** Starts Prometheus in `dir`, scraping `targets` and evaluating `ruleFiles`, and resolves once it reports ready. */
export async function startPrometheus(dir: string, targets: readonly TargetGroup[], ruleFiles: readonly string[]): Promise<RunningPrometheus> {
  await mkdir(join(dir, 'data'), { recursive: true });
  const targetsFile = join(dir, 'targets.json');
  await writeFile(targetsFile, JSON.stringify(targets));
  const configFile = join(dir, 'prometheus.yml');
  await writeFile(configFile, renderPrometheusConfig({ targetsFile, ruleFiles }));
  const port = await freePort();
  const url = `http://127.0.0.1:${String(port)}`;
  const logFd = openSync(join(dir, 'prometheus.log'), 'a');
  const child = spawn(
    PROMETHEUS_BINARY,
    [`--config.file=${configFile}`, `--storage.tsdb.path=${join(dir, 'data')}`, `--web.listen-address=127.0.0.1:${String(port)}`],
    { stdio: ['ignore', logFd, logFd] },
  );
  closeSync(logFd);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const log = join(dir, 'prometheus.log');
  const exitedAtStart = (): Error | undefined => (child.exitCode === null ? undefined : new Error(`Prometheus exited at start (log: ${log})`));
  const readiness = async (): Promise<number> => (await fetch(`${url}/-/ready`)).status;
  await waitFor(`Prometheus ready on ${url} (log: ${log})`, readiness, (status) => status === 200, 30_000, LOCAL_POLL_INTERVAL_MS, exitedAtStart);
  return {
    url,
    query: (expr) => api(`${url}/api/v1/query?query=${encodeURIComponent(expr)}`, z.object({ result: z.array(sampleSchema) })).then((data) => data.result),
    targets: () => api(`${url}/api/v1/targets?state=active`, z.object({ activeTargets: z.array(targetSchema) })).then((data) => data.activeTargets),
    rules: () =>
      api(`${url}/api/v1/rules`, z.object({ groups: z.array(z.object({ rules: z.array(ruleSchema) }).loose()) })).then((data) =>
        data.groups.flatMap((group) => group.rules),
      ),
    stop: async () => {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      await Promise.race([exited, pause(10_000).then(() => child.kill('SIGKILL'))]);
    },
  };
}
