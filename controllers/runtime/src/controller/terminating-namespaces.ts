// Namespaces that lately refused a write because they are being deleted. While a namespace is deleted, the namespace
// controller removes children one by one, and each removal wakes their owner, whose reconcile would apply the child
// again and be refused: at 1,000 workloads in one namespace that was thousands of refused writes a minute. Keys of a
// namespace marked here wait out the mark instead (they are requeued, never dropped, so a finalizer is still removed).
import { systemClock, type Clock } from '../queue/clock.js';

export class TerminatingNamespaces {
  private readonly until = new Map<string, number>();

  constructor(
    private readonly clock: Clock = systemClock,
    private readonly holdMs = 10_000,
  ) {}

  mark(namespace: string): void {
    this.until.set(namespace, this.clock.now() + this.holdMs);
  }

  /** How long a key of `namespace` should wait before its reconcile; 0 when it may run now. */
  waitMs(namespace: string): number {
    const until = this.until.get(namespace);
    if (until === undefined) return 0;
    const wait = until - this.clock.now();
    if (wait <= 0) this.until.delete(namespace);
    return Math.max(0, wait);
  }
}
