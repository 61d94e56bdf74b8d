// What a bed's pods last said, for a failure message: a wait on an ensemble that times out in CI shows only its last
// value there, and the bed, with every container log, is gone by the time anyone reads it.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { BedInfo } from '../bed/index.js';
import { WaitTimeoutError } from '../wait-for.js';

const LINE_CHARACTERS = 300;

/**
 * ZooKeeper's line for each four-letter word it answers: the controllers ask every member a few times a second, so
 * without leaving these out a tail holds nothing else.
 */
const FOUR_LETTER_WORD_LINE = /NIOServerCnxn - Processing \w+ command from/;

/** Where the bed's node agent writes a pod's container output. */
export function containerLogFile(bed: Pick<BedInfo, 'dir'>, namespace: string, pod: string): string {
  return join(bed.dir, 'agent', 'pods', `${namespace}_${pod}`, 'container.log');
}

/** The last `lines` lines of each pod's container log, pod by pod, without ZooKeeper's four-letter-word chatter. */
export async function containerLogTails(bed: Pick<BedInfo, 'dir'>, namespace: string, pods: readonly string[], lines = 20): Promise<string> {
  const tails = await Promise.all(
    pods.map(async (pod) => {
      try {
        const said = (await readFile(containerLogFile(bed, namespace, pod), 'utf8')).trimEnd().split('\n').filter((line) => !FOUR_LETTER_WORD_LINE.test(line));
        const tail = said.slice(-lines).map((line) => line.slice(0, LINE_CHARACTERS));
        return [`--- ${namespace}/${pod}, last ${String(tail.length)} lines of its container log`, ...tail].join('\n');
      } catch (error) {
        return `--- ${namespace}/${pod}: no container log (${error instanceof Error ? error.message : String(error)})`;
      }
    }),
  );
  return tails.join('\n');
}

/** `wait`, whose timeout (WaitTimeoutError) is followed in its message by the pods' log tails; other errors pass as they are. */
export async function withContainerLogs<T>(wait: Promise<T>, bed: Pick<BedInfo, 'dir'>, namespace: string, pods: readonly string[]): Promise<T> {
  try {
    return await wait;
  } catch (error) {
    if (!(error instanceof WaitTimeoutError)) throw error;
    throw new Error(`${error.message}\n${await containerLogTails(bed, namespace, pods)}`, { cause: error });
  }
}
