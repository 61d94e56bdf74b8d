// The command lines of every process on the machine, read from /proc once a second: a process that lives less than a
// second may be missed (its samples are then told by their thread name alone), and one that execs keeps each line.
import { readdir, readFile } from 'node:fs/promises';

export class CommandLines {
  private readonly seen = new Map<number, string[]>();
  private timer: NodeJS.Timeout | undefined;

  start(intervalMs = 1_000): void {
    const scan = (): void => {
      void this.scan().finally(() => {
        if (this.timer !== undefined) this.timer = setTimeout(scan, intervalMs);
      });
    };
    this.timer = setTimeout(scan, 0);
  }

  async stop(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.scan();
  }

  of(pid: number): readonly string[] {
    return this.seen.get(pid) ?? [];
  }

  private async scan(): Promise<void> {
    const pids = (await readdir('/proc')).filter((entry) => /^\d+$/.test(entry));
    await Promise.all(
      pids.map(async (entry) => {
        // Gone between the listing and the read: nothing to keep.
        const line = await readFile(`/proc/${entry}/cmdline`, 'utf8').catch(() => '');
        const text = line.replaceAll('\0', ' ').trim().slice(0, 300);
        if (text === '') return;
        const pid = Number(entry);
        const lines = this.seen.get(pid) ?? [];
        if (!lines.includes(text)) this.seen.set(pid, [...lines, text]);
      }),
    );
  }
}
