// Per-key exponential backoff for failed reconciles (controller-runtime's default: 5 ms doubling up to 1000 s), paced
// by the one backoff of retry/backoff.ts.
import { backoffDelayMs } from '../retry/backoff.js';

export interface BackoffOptions {
  /** Delay after the first failure. Default 5 ms. */
  readonly baseMs?: number;
  /** Upper bound of the delay. Default 1000 s. */
  readonly maxMs?: number;
}

export class KeyBackoff {
  private readonly failures = new Map<string, number>();
  private readonly baseMs: number;
  private readonly maxMs: number;

  constructor(options: BackoffOptions = {}) {
    this.baseMs = options.baseMs ?? 5;
    this.maxMs = options.maxMs ?? 1_000_000;
  }

  /** Records one more failure of `key` and returns how long to wait before retrying it. */
  next(key: string): number {
    const failures = this.failures.get(key) ?? 0;
    this.failures.set(key, failures + 1);
    return backoffDelayMs(failures, { baseMs: this.baseMs, maxMs: this.maxMs });
  }

  /** Forgets the failures of `key`: the next failure waits `baseMs` again. */
  forget(key: string): void {
    this.failures.delete(key);
  }

  failuresOf(key: string): number {
    return this.failures.get(key) ?? 0;
  }
}
