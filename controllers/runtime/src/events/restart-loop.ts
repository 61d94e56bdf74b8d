// The restart loop every reader of the stream runs: one round (connect, set up, read until it ends), then the next after
// a backoff when it failed, until stopped. NATS restarts, lost JetStream state and closed connections all end a round.
import { backoffDelayMs, reconnectBackoff } from '../retry/backoff.js';
import { pause } from '../retry/pause.js';

export interface Rounds {
  /** Stops the loop: `closeRound` ends the round under way (closes its messages), then the loop finishes. */
  stop(closeRound: () => Promise<unknown>): Promise<void>;
}

/** Runs `round` (told by its signal when the loop stops) until stopped; `onFailure` hears each failed round (the attempt resets after a long-lived round). */
export function runRounds(round: (signal: AbortSignal) => Promise<void>, onFailure: (error: unknown, attempt: number) => void): Rounds {
  const stopping = new AbortController();
  const run = async (): Promise<void> => {
    let attempt = 0;
    while (!stopping.signal.aborted) {
      const startedAt = Date.now();
      try {
        await round(stopping.signal);
      } catch (error) {
        if (stopping.signal.aborted) break;
        onFailure(error, attempt);
      }
      if (Date.now() - startedAt > reconnectBackoff.maxMs) attempt = 0;
      await pause(backoffDelayMs(attempt++, reconnectBackoff), stopping.signal);
    }
  };
  const running = run();
  return {
    stop: async (closeRound) => {
      stopping.abort();
      await closeRound();
      await running;
    },
  };
}
