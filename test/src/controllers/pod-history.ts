// Which member pods a roll restarted, in order, and how many were down at once, from a sequence of LISTs of the pods.
// The counting is a pure fold over the lists (PodTally); PodHistory feeds it a fresh LIST from the apiserver every poll.
import { setTimeout as sleep } from 'node:timers/promises';
import type { V1Pod } from '@kubernetes/client-node';
import { podReady } from '../pod-ready.js';
import { waitFor } from '../wait-for.js';

/** One pod going down for good (Terminating or gone) after the baseline. */
export interface Restart {
  readonly pod: string;
  readonly uid: string;
  readonly at: number;
}

/** A replacement pod (a uid the baseline did not have) seen Ready for the first time: the restarted member back. */
export type PodReturn = Restart;

function terminating(pod: V1Pod): boolean {
  return pod.metadata?.deletionTimestamp !== undefined;
}

function ready(pod: V1Pod): boolean {
  return !terminating(pod) && podReady(pod);
}

function uidOf(pod: V1Pod): string {
  return pod.metadata?.uid ?? '';
}

/**
 * Counts from a baseline: the first list in which all `members` pods are Ready. Those uids are up from then on, so a
 * readiness dip of a member nobody is replacing never counts. After it, a member is down only while the roll replaces
 * it: Terminating, missing, or a new uid that has not been Ready yet. Lists before the baseline count nothing.
 */
export class PodTally {
  readonly restarts: Restart[] = [];
  readonly returns: PodReturn[] = [];
  mostDown = 0;
  private readonly up = new Set<string>();
  private readonly live = new Map<string, string>();
  private baselineTaken = false;

  constructor(private readonly members: number) {}

  get baselined(): boolean {
    return this.baselineTaken;
  }

  observe(pods: readonly V1Pod[], at: number): void {
    if (!this.baselineTaken) {
      this.takeBaseline(pods);
      return;
    }
    const byName = new Map(pods.map((pod) => [pod.metadata?.name ?? '', pod]));
    for (const [name, uid] of [...this.live]) {
      const pod = byName.get(name);
      if (pod === undefined || uidOf(pod) !== uid || terminating(pod)) {
        this.restarts.push({ pod: name, uid, at });
        this.live.delete(name);
      }
    }
    for (const pod of pods) {
      const gone = this.restarts.some((restart) => restart.uid === uidOf(pod));
      if (!terminating(pod) && !gone) this.live.set(pod.metadata?.name ?? '', uidOf(pod));
      if (ready(pod) && !this.up.has(uidOf(pod))) {
        this.up.add(uidOf(pod));
        this.returns.push({ pod: pod.metadata?.name ?? '', uid: uidOf(pod), at });
      }
    }
    const upNow = pods.filter((pod) => !terminating(pod) && this.up.has(uidOf(pod))).length;
    this.mostDown = Math.max(this.mostDown, this.members - upNow);
  }

  private takeBaseline(pods: readonly V1Pod[]): void {
    const readyPods = pods.filter(ready);
    if (readyPods.length < this.members) return;
    for (const pod of readyPods) {
      this.up.add(uidOf(pod));
      this.live.set(pod.metadata?.name ?? '', uidOf(pod));
    }
    this.baselineTaken = true;
  }
}

/** The tally of a whole sequence of lists, each with the time it was read. */
export function tallyPods(members: number, lists: readonly { at: number; pods: readonly V1Pod[] }[]): PodTally {
  const tally = new PodTally(members);
  for (const list of lists) tally.observe(list.pods, list.at);
  return tally;
}

/** Polls a workload's member pods into a PodTally, from a baseline taken before the change under test starts. */
export class PodHistory {
  private readonly tally: PodTally;
  private stopped = false;
  private loop: Promise<void> | undefined;
  /** LISTs begun, and the latest of them folded into the tally (a failed LIST folds nothing). */
  private listsBegun = 0;
  private listFolded = 0;

  constructor(
    private readonly listPods: () => Promise<V1Pod[]>,
    members: number,
  ) {
    this.tally = new PodTally(members);
  }

  get restarts(): readonly Restart[] {
    return this.tally.restarts;
  }

  get mostDown(): number {
    return this.tally.mostDown;
  }

  get returns(): readonly PodReturn[] {
    return this.tally.returns;
  }

  /**
   * Resolves once a LIST begun after this call is folded in: whatever the pods went through before the call is in
   * `restarts` and `returns` then. Call it after a signal (a reconcile counted, a condition seen) before asserting on
   * the history. It waits for the poll rather than listing itself, so that lists are folded in the order they were read.
   */
  async caughtUp(timeoutMs = 30_000): Promise<void> {
    const begun = this.listsBegun;
    await waitFor('a LIST of the pods begun after the signal', async () => this.listFolded > begun, (folded) => folded, timeoutMs, 50);
  }

  /** Starts polling and resolves once the baseline is taken: every member Ready in one of this history's own LISTs. */
  async start(intervalMs = 250, baselineTimeoutMs = 300_000): Promise<void> {
    this.loop = (async () => {
      while (!this.stopped) {
        this.listsBegun += 1;
        const list = this.listsBegun;
        const pods = await this.listPods().catch(() => undefined);
        if (pods !== undefined) {
          this.tally.observe(pods, Date.now());
          this.listFolded = list;
        }
        await sleep(intervalMs);
      }
    })();
    await waitFor('every member Ready in one LIST (the pod history\'s baseline)', async () => this.tally.baselined, (baselined) => baselined, baselineTimeoutMs, intervalMs);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.loop;
  }

  /** Restarts per pod name. */
  counts(): Record<string, number> {
    const counts: Record<string, number> = {};
    for (const restart of this.tally.restarts) counts[restart.pod] = (counts[restart.pod] ?? 0) + 1;
    return counts;
  }

  order(): string[] {
    return this.tally.restarts.map((restart) => restart.pod);
  }
}
