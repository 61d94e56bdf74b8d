// Runs a container probe (exec, tcpSocket, httpGet) every periodSeconds and reports when its verdict flips.
import type { V1ContainerPort, V1Probe } from '@kubernetes/client-node';
import { spawn } from 'node:child_process';
import { request } from 'node:http';
import { connect } from 'node:net';
import type { Logger } from 'pino';
import { pause } from '@zk-oam/runtime';
import { killGroup } from './pid-registry.js';

export interface ProbeContext {
  podIP: string;
  ports: readonly V1ContainerPort[];
  /** Turns an exec probe's command into a host command with the container's env and path mapping. */
  execLaunch(command: readonly string[]): { command: string; args: string[]; env: Record<string, string>; cwd: string };
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
    return runExec(context.execLaunch(probe.exec.command), timeoutMs);
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

function runExec(launch: ReturnType<ProbeContext['execLaunch']>, timeoutMs: number): Promise<ProbeOutcome> {
  return new Promise((resolve) => {
    const child = spawn(launch.command, launch.args, { cwd: launch.cwd, env: launch.env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const collect = (chunk: Buffer): void => {
      output = (output + chunk.toString()).slice(-500);
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    const timer = setTimeout(() => {
      if (child.pid !== undefined) killGroup(child.pid, 'SIGKILL');
    }, timeoutMs);
    child.once('error', (error) => {
      clearTimeout(timer);
      resolve({ ok: false, detail: error.message });
    });
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ ok: code === 0, detail: signal === null ? `exit ${code ?? '?'}: ${output.trim()}` : `killed by ${signal} (timeout?)` });
    });
  });
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
