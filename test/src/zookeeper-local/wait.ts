// Polls a member with `srvr` until it serves: Java starts slowly on two cores, so this waits patiently.
import { fourLetterWord, parseSrvr, type SrvrAnswer } from '@zk-oam/zookeeper';
import { setTimeout as sleep } from 'node:timers/promises';

export class MemberNotServingError extends Error {
  override readonly name = 'MemberNotServingError';
}

export async function waitUntilServing(
  address: { host: string; port: number; label: string },
  options: { timeoutMs: number; isAlive: () => boolean },
): Promise<SrvrAnswer> {
  const deadline = Date.now() + options.timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    if (!options.isAlive()) {
      throw new MemberNotServingError(`${address.label} exited before serving`, { cause: lastError });
    }
    try {
      return parseSrvr(await fourLetterWord(address.host, address.port, 'srvr', { timeoutMs: 2_000 }));
    } catch (error: unknown) {
      lastError = error;
    }
    await sleep(250);
  }
  throw new MemberNotServingError(`${address.label} not serving after ${options.timeoutMs} ms`, { cause: lastError });
}
