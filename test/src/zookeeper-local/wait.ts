// Polls a member with `srvr` until it serves: Java starts slowly on two cores, so this waits patiently.
import { fourLetterWord, parseSrvr, type SrvrAnswer } from '@zk-oam/zookeeper';
import { waitUntil } from '../bed/wait.js';

export class MemberNotServingError extends Error {
  override readonly name = 'MemberNotServingError';
}

export async function waitUntilServing(
  address: { host: string; port: number; label: string },
  options: { timeoutMs: number; isAlive: () => boolean },
): Promise<SrvrAnswer> {
  let answer: SrvrAnswer | undefined;
  const serving = async (): Promise<boolean> => {
    answer = parseSrvr(await fourLetterWord(address.host, address.port, 'srvr', { timeoutMs: 2_000 }));
    return true;
  };
  const giveUp = (): Error | undefined => (options.isAlive() ? undefined : new MemberNotServingError(`${address.label} exited before serving`));
  try {
    await waitUntil(`${address.label} serving`, serving, { timeoutMs: options.timeoutMs, intervalMs: 250, giveUp });
  } catch (error) {
    if (error instanceof MemberNotServingError) throw error;
    throw new MemberNotServingError(`${address.label} not serving after ${options.timeoutMs} ms`, { cause: error });
  }
  if (answer === undefined) throw new MemberNotServingError(`${address.label} gave no srvr answer`);
  return answer;
}
