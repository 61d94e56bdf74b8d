// At most one native ZooKeeper handle open at a time in a process. The binding misbehaves when several of its handles
// reconnect at once after a member dies (sessions time out, its socket polling loses track), so every admin session of
// a process waits its turn at one gate, for no longer than its connect budget.
import { pause } from '@zk-oam/runtime/retry';
import { ZooKeeperConnectionError } from './errors.js';

export class HandleGate {
  private tail: Promise<void> = Promise.resolve();

  /** Resolves with the release once the gate is this caller's; rejects after `timeoutMs` of waiting. */
  async enter(timeoutMs: number, context: { operation: string; connectString: string }): Promise<() => void> {
    let release = (): void => {};
    const mine = new Promise<void>((resolve) => {
      release = resolve;
    });
    const before = this.tail;
    this.tail = before.then(() => mine);
    const turnCame = new AbortController();
    const entered = await Promise.race([before.then(() => true), pause(timeoutMs, turnCame.signal).then(() => false)]);
    // Ends the budget's pause (and its timer) when the turn came first.
    turnCame.abort();
    if (!entered) {
      // The turn is given up at once: whoever queued after this caller waits for the current holder only.
      release();
      throw new ZooKeeperConnectionError(`another ZooKeeper handle of this process stayed open for ${String(timeoutMs)} ms`, context);
    }
    return release;
  }
}
