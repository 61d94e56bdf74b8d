// The agent's pacing of container restarts and watch restarts: a kubelet-like CrashLoopBackOff scaled down for tests,
// on the runtime's one backoff.
import type { BackoffPolicy } from '@zk-oam/runtime';

export const restartBackoff: BackoffPolicy = { baseMs: 1_000, maxMs: 30_000 };

/** Time a process must stay up before its next failure starts again from the first delay. */
export const restartBackoffResetMs = 60_000;
