// Watches who leads an ensemble while an operation runs, by polling `srvr` on every member: how many leader elections
// happened (each election starts a new epoch, the high 32 bits of the zxid) and how long no member was leading.
import { ZOOKEEPER_PORTS } from '@zk-oam/apis';
import { fourLetterWord, parseSrvr } from '@zk-oam/zookeeper';
import { pause } from '@zk-oam/runtime';

export interface LeaderTrackerOptions {
  /** The members' IPs, read again at every poll (pods come and go during an operation). */
  readonly members: () => readonly string[] | Promise<readonly string[]>;
  readonly clientPort?: number;
  /** Default 200 ms. */
  readonly pollMs?: number;
}

export interface LeaderReport {
  /** New epochs seen after the first: one per completed leader election. */
  readonly elections: number;
  /** Times the leading member changed (an election may re-elect the same member; that is not counted here). */
  readonly leaderChanges: number;
  /** Total time with no member answering `Mode: leader`, to the poll's resolution. */
  readonly noLeaderMs: number;
  /** The leaders in order, by IP. */
  readonly leaders: readonly string[];
  readonly polls: number;
}

export interface Sample {
  readonly at: number;
  readonly leader: { ip: string; epoch: bigint } | undefined;
}

export class LeaderTracker {
  private readonly samples: Sample[] = [];
  private stopped = false;
  private readonly loop: Promise<void>;
  private markLeaderSeen: () => void = () => undefined;
  private readonly leaderSeen = new Promise<void>((resolve) => {
    this.markLeaderSeen = resolve;
  });

  constructor(private readonly options: LeaderTrackerOptions) {
    this.loop = this.run();
  }

  /** Resolves once a poll has found a leader: an operation started after it is measured from a known leader. */
  async firstLeader(): Promise<void> {
    await this.leaderSeen;
  }

  async stop(): Promise<LeaderReport> {
    this.stopped = true;
    await this.loop;
    return summarise(this.samples);
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      const ips = await this.options.members();
      const answers = await Promise.all(ips.map((ip) => this.ask(ip)));
      const leading = answers.filter((answer) => answer?.mode === 'leader').flatMap((answer) => (answer === undefined ? [] : [answer]));
      // Two members may both say leader for a moment around an election; the newer epoch is the real one.
      const newest = leading.sort((a, b) => (a.epoch < b.epoch ? 1 : -1))[0];
      this.samples.push({ at: performance.now(), leader: newest === undefined ? undefined : { ip: newest.ip, epoch: newest.epoch } });
      if (newest !== undefined) this.markLeaderSeen();
      await pause(this.options.pollMs ?? 200);
    }
  }

  private async ask(ip: string): Promise<{ ip: string; mode: string; epoch: bigint } | undefined> {
    try {
      const srvr = parseSrvr(await fourLetterWord(ip, this.options.clientPort ?? ZOOKEEPER_PORTS.client, 'srvr', { timeoutMs: 1_000 }));
      return { ip, mode: srvr.mode, epoch: srvr.zxid.value >> 32n };
    } catch {
      return undefined;
    }
  }
}

/** Pure: the report of a series of samples. */
export function summarise(samples: readonly Sample[]): LeaderReport {
  let noLeaderMs = 0;
  const epochs = new Set<bigint>();
  const leaders: string[] = [];
  samples.forEach((sample, index) => {
    const next = samples[index + 1];
    if (sample.leader === undefined) {
      if (next !== undefined) noLeaderMs += next.at - sample.at;
      return;
    }
    epochs.add(sample.leader.epoch);
    if (leaders.at(-1) !== sample.leader.ip) leaders.push(sample.leader.ip);
  });
  return {
    elections: Math.max(0, epochs.size - 1),
    leaderChanges: Math.max(0, leaders.length - 1),
    noLeaderMs: Math.round(noLeaderMs),
    leaders,
    polls: samples.length,
  };
}
