// Runs a container probe (exec, tcpSocket, httpGet) every periodSeconds and reports when its verdict flips.
import type { V1ContainerPort, V1Probe } from '@kubernetes/client-node';
import { request } from 'node:http';
import { connect } from 'node:net';
import type { Logger } from 'pino';
import { pause } from '@zk-oam/runtime';
import type { ExecOutcome } from '../containers/runc.js';

export interface ProbeContext {
  podIP: string;
  ports: readonly V1ContainerPort[];
  /** Runs an exec probe's command in the container. */
  exec(command: readonly string[], timeoutMs: number): Promise<ExecOutcome>;
}

/** Probes until stopped; `onVerdict` is called with the initial verdict and whenever the thresholds flip it. */
export class ProbeLoop {
  private readonly stopping = new AbortController();
  private verdict: boolean;

  constructor(
    private readonly probe: V1Probe,
    private readonly context: ProbeContext,
    initialVerdict: boolean,
    private readonly log: Logger,
    private readonly onVerdict: (healthy: boolean) => void,
  ) {
    this.verdict = initialVerdict;
  }

  start(): void {
    void this.run();
  }

  stop(): void {
    this.stopping.abort();
  }

  private async run(): Promise<void> {
    const periodMs = (this.probe.periodSeconds ?? 10) * 1000;
    const successThreshold = this.probe.successThreshold ?? 1;
    const failureThreshold = this.probe.failureThreshold ?? 3;
    let successes = 0;
    let failures = 0;
    await pause((this.probe.initialDelaySeconds ?? 0) * 1000, this.stopping.signal);
    while (!this.stopping.signal.aborted) {
      const outcome = await runProbe(this.probe, this.context).catch((error: unknown) => ({ ok: false, detail: String(error) }));
      if (this.stopping.signal.aborted) {
        return;
      }
      successes = outcome.ok ? successes + 1 : 0;
      failures = outcome.ok ? 0 : failures + 1;
      if (!this.verdict && successes >= successThreshold) {
        this.flip(true, outcome.detail);
      } else if (this.verdict && failures >= failureThreshold) {
        this.flip(false, outcome.detail);
      }
      await pause(periodMs, this.stopping.signal);
    }
  }

  private flip(healthy: boolean, detail: string): void {
    this.verdict = healthy;
    this.log.info({ healthy, detail }, 'probe verdict changed');
    this.onVerdict(healthy);
  }
}

interface ProbeOutcome {
  ok: boolean;
  detail: string;
}

export async function runProbe(probe: V1Probe, context: ProbeContext): Promise<ProbeOutcome> {
  const timeoutMs = (probe.timeoutSeconds ?? 1) * 1000;
  if (probe.exec?.command !== undefined) {
    const { exitCode, output } = await context.exec(probe.exec.command, timeoutMs);
    return { ok: exitCode === 0, detail: exitCode === null ? `killed after ${String(timeoutMs)} ms` : `exit ${String(exitCode)}: ${output}` };
  }
  if (probe.tcpSocket !== undefined) {
    return runTcp(probe.tcpSocket.host ?? context.podIP, resolvePort(probe.tcpSocket.port, context.ports), timeoutMs);
  }
  if (probe.httpGet !== undefined) {
    const { host, path, scheme } = probe.httpGet;
    if (scheme === 'HTTPS') {
      return { ok: false, detail: 'httpGet over HTTPS is not supported by the bed agent' };
    }
    return runHttp(host ?? context.podIP, resolvePort(probe.httpGet.port, context.ports), path ?? '/', timeoutMs);
  }
  return { ok: false, detail: 'probe has no supported handler' };
}

function resolvePort(port: number | string, ports: readonly V1ContainerPort[]): number {
  if (typeof port === 'number') {
    return port;
  }
  return ports.find((candidate) => candidate.name === port)?.containerPort ?? Number(port);
}

function runTcp(host: string, port: number, timeoutMs: number): Promise<ProbeOutcome> {
  return new Promise((resolve) => {
    const socket = connect({ host, port, timeout: timeoutMs });
    socket.once('connect', () => {
      socket.destroy();
      resolve({ ok: true, detail: `connected to ${host}:${port}` });
    });
    socket.once('timeout', () => {
      socket.destroy();
      resolve({ ok: false, detail: `timeout connecting to ${host}:${port}` });
    });
    socket.once('error', (error) => resolve({ ok: false, detail: error.message }));
  });
}

function runHttp(host: string, port: number, path: string, timeoutMs: number): Promise<ProbeOutcome> {
  return new Promise((resolve) => {
    const call = request({ host, port, path, method: 'GET', timeout: timeoutMs }, (response) => {
      response.resume();
      const status = response.statusCode ?? 0;
      resolve({ ok: status >= 200 && status < 400, detail: `HTTP ${status}` });
    });
    call.once('timeout', () => call.destroy(new Error(`timeout on http://${host}:${port}${path}`)));
    call.once('error', (error) => resolve({ ok: false, detail: error.message }));
    call.end();
  });
}
