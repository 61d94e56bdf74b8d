// The one poller of the bed's own code (tests use vitest's): wait until a check passes, failing fast when what it
// depends on has died.
import { request } from 'node:https';
import { setTimeout as sleep } from 'node:timers/promises';
import { BedProcessError, BedTimeoutError } from './errors.js';
import { describeExit, type ManagedProcess } from './process.js';

export interface WaitOptions {
  timeoutMs: number;
  intervalMs?: number;
  /** Processes whose exit makes waiting pointless. */
  processes?: ManagedProcess[];
  /** Another reason waiting has become pointless (a child that could not start, or exited): checked before each try. */
  giveUp?: () => Error | undefined;
}

/** Polls `check` until it returns true; a throwing check counts as "not yet" and its error becomes the cause. */
export async function waitUntil(what: string, check: () => Promise<boolean>, options: WaitOptions): Promise<void> {
  const deadline = Date.now() + options.timeoutMs;
  let lastError: unknown;
  for (;;) {
    const dead = options.processes?.find((p) => !p.isRunning());
    if (dead) {
      const status = await dead.exited;
      throw new BedProcessError(`${dead.name} ${describeExit(status)} while waiting for ${what}`, dead.name, dead.logFile);
    }
    const pointless = options.giveUp?.();
    if (pointless !== undefined) throw pointless;
    try {
      if (await check()) return;
      lastError = undefined;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() > deadline) throw new BedTimeoutError(what, options.timeoutMs, { cause: lastError });
    await sleep(options.intervalMs ?? 200);
  }
}

export interface TlsClientOptions {
  ca?: string;
  cert?: string;
  key?: string;
  /** For components serving with self-signed certificates (controller manager, scheduler health). */
  insecure?: boolean;
}

/** GETs an https URL and resolves its status code. */
export function httpsStatus(url: string, tls: TlsClientOptions): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: 'GET', ca: tls.ca, cert: tls.cert, key: tls.key, rejectUnauthorized: !tls.insecure, timeout: 5_000 },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.once('timeout', () => req.destroy(new Error(`GET ${url} timed out`)));
    req.once('error', reject);
    req.end();
  });
}

/** GETs a plain http URL (etcd's client port) and resolves its status code. */
export async function httpStatus(url: string): Promise<number> {
  const res = await fetch(url, { signal: AbortSignal.timeout(5_000) });
  await res.body?.cancel();
  return res.status;
}
