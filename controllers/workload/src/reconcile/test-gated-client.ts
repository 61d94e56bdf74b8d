// A fake apiserver for the reconcile's unit tests: it records each request and answers only when the test lets it, so
// that a test sees which requests are out together and which wait for an answer.
import type { KubeClient } from '@zk-oam/runtime';

export interface GatedClient {
  readonly client: Pick<KubeClient, 'request'>;
  /** `VERB path` of each request, in the order sent. */
  readonly requests: string[];
  /** Answers every request out, and those their answers lead to, for a few rounds of the event loop. */
  answer(): Promise<void>;
}

/** `answerOf` gives a request's answer when it is let through, or throws the error it fails with. */
export function gatedClient(answerOf: (verb: string, path: string) => unknown): GatedClient {
  const requests: string[] = [];
  let waiting: Array<() => void> = [];
  const client: Pick<KubeClient, 'request'> = {
    request: (verb, path) => {
      requests.push(`${verb} ${path}`);
      return new Promise((resolve, reject) => {
        waiting.push(() => {
          try {
            resolve(answerOf(verb, path));
          } catch (error) {
            reject(error instanceof Error ? error : new Error(String(error)));
          }
        });
      });
    },
  };
  const answer = async (): Promise<void> => {
    for (let round = 0; round < 5; round += 1) {
      const now = waiting;
      waiting = [];
      for (const release of now) release();
      await new Promise((resolve) => setImmediate(resolve));
    }
  };
  return { client, requests, answer };
}
