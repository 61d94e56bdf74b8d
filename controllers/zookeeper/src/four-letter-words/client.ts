// Sends one four-letter word over TCP and reads the answer until the server closes the connection.
import { connect } from 'node:net';
import { classifyAnswer } from './classify.js';
import { FourLetterWordConnectionError, type FourLetterWord } from './errors.js';

export interface FourLetterWordOptions {
  /** Whole exchange budget: connect, write, read to EOF. */
  timeoutMs?: number;
}

const DEFAULT_TIMEOUT_MS = 5_000;

/**
 * Resolves with the raw answer. Rejects with FourLetterWordConnectionError when the exchange fails,
 * NotServingError / NotWhitelistedError when the server refuses.
 */
export function fourLetterWord(
  host: string,
  port: number,
  word: FourLetterWord,
  options: FourLetterWordOptions = {},
): Promise<string> {
  const context = { host, port, word };
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  return new Promise<string>((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = connect({ host, port });
    const timer = setTimeout(() => {
      socket.destroy(new Error(`no complete answer within ${timeoutMs} ms`));
    }, timeoutMs);
    socket.on('connect', () => {
      socket.end(word);
    });
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
    });
    socket.on('error', (error: Error) => {
      clearTimeout(timer);
      reject(new FourLetterWordConnectionError(error.message, context, { cause: error }));
    });
    socket.on('close', (hadError: boolean) => {
      clearTimeout(timer);
      if (hadError) {
        return;
      }
      try {
        resolve(classifyAnswer(context, Buffer.concat(chunks).toString('utf8')));
      } catch (error: unknown) {
        reject(error);
      }
    });
  });
}
