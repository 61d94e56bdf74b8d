// Spreads timed requeues (periodic looks at objects that no watch reports on) so that no more than `perSecond` fall due
// in any second of one process, however many objects there are: at 1,000 objects and a 10 s period, 20 per second
// stretches each object's period to about 50 s instead of sending 100 looks per second. Each period is jittered, so
// objects created together do not stay in step. Reconciles caused by watch events are not paced.
import { systemClock, type Clock } from './clock.js';

/** How far a period moves either way by default, as a fraction: a look falls due 0.8 to 1.2 periods later. */
export const DEFAULT_PERIOD_JITTER = 0.2;

export interface RequeuePacerOptions {
  /** Timed requeues allowed to fall due per second. */
  readonly perSecond: number;
  /** Each period is stretched or shrunk by up to this fraction, at random. Default DEFAULT_PERIOD_JITTER. */
  readonly jitter?: number;
  readonly clock?: Clock;
  readonly random?: () => number;
}

export class RequeuePacer {
  private readonly slotMs: number;
  private readonly jitter: number;
  private readonly clock: Clock;
  private readonly random: () => number;
  /** Slot index (time / slotMs) -> the key it was given; one key per slot. */
  private readonly slots = new Map<number, string>();
  private readonly slotOfKey = new Map<string, number>();

  constructor(options: RequeuePacerOptions) {
    if (!(options.perSecond > 0)) throw new Error(`perSecond must be positive, got ${String(options.perSecond)}`);
    this.slotMs = 1000 / options.perSecond;
    this.jitter = options.jitter ?? DEFAULT_PERIOD_JITTER;
    this.clock = options.clock ?? systemClock;
    this.random = options.random ?? Math.random;
  }

  /** How long `key` waits for its next look, about `periodMs` from now; its earlier slot, if any, is given back. */
  delayMs(key: string, periodMs: number): number {
    const now = this.clock.now();
    this.release(key);
    this.forgetPast(now);
    const wanted = now + periodMs * (1 - this.jitter + 2 * this.jitter * this.random());
    let slot = Math.ceil(wanted / this.slotMs);
    while (this.slots.has(slot)) slot += 1;
    this.slots.set(slot, key);
    this.slotOfKey.set(key, slot);
    return Math.max(0, slot * this.slotMs - now);
  }

  /** Gives back the slot of a key that no longer needs a timed look (deleted, or waiting for events only). */
  release(key: string): void {
    const slot = this.slotOfKey.get(key);
    if (slot === undefined) return;
    this.slotOfKey.delete(key);
    if (this.slots.get(slot) === key) this.slots.delete(slot);
  }

  /** Slots reserved now, for the metrics and tests. */
  reserved(): number {
    return this.slots.size;
  }

  private forgetPast(now: number): void {
    const current = Math.floor(now / this.slotMs);
    for (const [slot, key] of this.slots) {
      if (slot >= current) continue;
      this.slots.delete(slot);
      if (this.slotOfKey.get(key) === slot) this.slotOfKey.delete(key);
    }
  }
}
