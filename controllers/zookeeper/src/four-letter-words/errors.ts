// Typed failures of a four-letter-word exchange, so callers can tell "server down" from "server not in quorum".
export type FourLetterWord = 'srvr' | 'mntr' | 'ruok' | 'conf' | 'stat' | 'envi' | 'cons' | 'wchs' | 'dump';

interface WordContext {
  host: string;
  port: number;
  word: string;
}

abstract class FourLetterWordError extends Error {
  readonly host: string;
  readonly port: number;
  readonly word: string;

  constructor(message: string, context: WordContext, options?: { cause?: unknown }) {
    super(`${context.word} on ${context.host}:${context.port}: ${message}`, options);
    this.host = context.host;
    this.port = context.port;
    this.word = context.word;
  }
}

/** The TCP exchange itself failed: refused, reset, or no answer in time. */
export class FourLetterWordConnectionError extends FourLetterWordError {
  override readonly name = 'FourLetterWordConnectionError';
}

/** The server answered but is not part of a working quorum (looking for a leader, syncing, ...). */
export class NotServingError extends FourLetterWordError {
  override readonly name = 'NotServingError';
  constructor(context: WordContext) {
    super('this ZooKeeper instance is not currently serving requests', context);
  }
}

/** The server refuses the word because `4lw.commands.whitelist` does not list it. */
export class NotWhitelistedError extends FourLetterWordError {
  override readonly name = 'NotWhitelistedError';
  constructor(context: WordContext) {
    super('not in the server\'s 4lw.commands.whitelist', context);
  }
}

/** The answer did not have the shape the parser expects. */
export class FourLetterWordParseError extends Error {
  override readonly name = 'FourLetterWordParseError';
  constructor(
    readonly word: string,
    message: string,
    readonly text: string,
  ) {
    super(`cannot parse ${word} output: ${message}`);
  }
}
