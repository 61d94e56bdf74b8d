// Namespaces that lately refused a write because they are being deleted. While a namespace is deleted, the namespace
// controller removes children one by one, and each removal wakes their owner, whose reconcile would apply the child
// again and be refused: at 1,000 workloads in one namespace that was thousands of refused writes a minute. Keys of a
// namespace marked here wait out the mark instead (they are requeued, never dropped, so a finalizer is still removed).
// A namespace being deleted takes no new object, so an object created in it after a refusal shows it was made again
// (a test suite or a pipeline deleting and creating the same namespace): that lifts the mark at once.
import { systemClock, type Clock } from '../queue/clock.js';

interface Mark {
  /** The first refusal of this mark. */
  readonly since: number;
  readonly until: number;
}

export class TerminatingNamespaces {
  private readonly marks = new Map<string, Mark>();

  constructor(
    private readonly clock: Clock = systemClock,
    private readonly holdMs = 10_000,
  ) {}

  mark(namespace: string): void {
    const now = this.clock.now();
    const held = this.marks.get(namespace);
    this.marks.set(namespace, { since: held !== undefined && held.until > now ? held.since : now, until: now + this.holdMs });
  }

  /** An object of `namespace` was created at `createdAt` (ms; a creationTimestamp's whole second). */
  created(namespace: string, createdAt: number): void {
    const held = this.marks.get(namespace);
    if (held !== undefined && createdAt >= held.since) this.marks.delete(namespace);
  }

  /** How long a key of `namespace` should wait before its reconcile; 0 when it may run now. */
  waitMs(namespace: string): number {
    const held = this.marks.get(namespace);
    if (held === undefined) return 0;
    const wait = held.until - this.clock.now();
    if (wait <= 0) this.marks.delete(namespace);
    return Math.max(0, wait);
  }
}
