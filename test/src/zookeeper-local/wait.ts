// Polls a member with `srvr` until it serves: Java starts slowly on two cores, so this waits patiently.
import { fourLetterWord, parseSrvr, type SrvrAnswer } from '@zk-oam/zookeeper';
import { POLL_INTERVAL_MS, waitFor } from '../wait-for.js';

export class MemberNotServingError extends Error {
  override readonly name = 'MemberNotServingError';
}

export async function waitUntilServing(
  address: { host: string; port: number; label: string },
  options: { timeoutMs: number; isAlive: () => boolean },
): Promise<SrvrAnswer> {
  const srvr = async (): Promise<SrvrAnswer> => parseSrvr(await fourLetterWord(address.host, address.port, 'srvr', { timeoutMs: 2_000 }));
  const giveUp = (): Error | undefined => (options.isAlive() ? undefined : new MemberNotServingError(`${address.label} exited before serving`));
  try {
    return await waitFor(`${address.label} serving`, srvr, () => true, options.timeoutMs, POLL_INTERVAL_MS, giveUp);
  } catch (error) {
    if (error instanceof MemberNotServingError) throw error;
    throw new MemberNotServingError(`${address.label} not serving after ${options.timeoutMs} ms`, { cause: error });
  }
}
