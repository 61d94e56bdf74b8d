// Sends one four-letter word over TCP, or TLS on a secure client port, and reads the answer until the server closes
// the connection.
import { connect, type Socket } from 'node:net';
import { checkServerIdentity, connect as connectTls } from 'node:tls';
import { classifyAnswer } from './classify.js';
import { FourLetterWordConnectionError, type FourLetterWord } from './errors.js';

/** How to trust a member on its secure client port. */
export interface FourLetterWordTls {
  /** PEM of the CA the member's certificate must chain to. */
  readonly ca: string;
  /** The DNS name its certificate must carry: members are dialled by IP, which no certificate names. */
  readonly serverName: string;
}

export interface FourLetterWordOptions {
  /** Whole exchange budget: connect (and TLS handshake), write, read to EOF. */
  timeoutMs?: number;
  /** Speak TLS (the member's secure client port). */
  tls?: FourLetterWordTls | undefined;
}

/** A plain socket, or a TLS one that verifies the chain and the server name; `ready` once the word can be written. */
function open(host: string, port: number, tls: FourLetterWordTls | undefined): { socket: Socket; ready: 'connect' | 'secureConnect' } {
  if (tls === undefined) return { socket: connect({ host, port }), ready: 'connect' };
  const socket = connectTls({ host, port, ca: tls.ca, checkServerIdentity: (_host, certificate) => checkServerIdentity(tls.serverName, certificate) });
  return { socket, ready: 'secureConnect' };
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
    const { socket, ready } = open(host, port, options.tls);
    // The answer's deadline, not a wait: the socket's events race it.
    const timer = setTimeout(() => {
      socket.destroy(new Error(`no complete answer within ${timeoutMs} ms`));
    }, timeoutMs);
    socket.on(ready, () => {
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
