// Runs a deployable's main so that a failure it does not handle itself (settings refused, no kubeconfig) ends the
// process with one structured log line saying why, instead of Node's report of an uncaught error, which prints the
// source line it was thrown from: in a bundle, one minified line thousands of characters wide.
import { z } from 'zod';
import { createLogger } from '../logging/logger.js';

export interface RunMainOptions {
  /** Where the line goes; stdout by default. */
  readonly destination?: NodeJS.WritableStream;
  /** Ends the process; `process.exit` by default (a half-started process may hold timers or sockets open). */
  readonly exit?: (code: number) => void;
}

/** The reason a person reads: a refused environment names each variable and what is wrong with it, on one line. */
export function failureReason(error: unknown): string {
  if (error instanceof z.ZodError) {
    const issues = error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`);
    return `invalid environment: ${issues.join('; ')}`;
  }
  return error instanceof Error ? error.message : String(error);
}

/** Awaits `main`; if it throws, logs `{ level: fatal, name, err, msg: <reason> }` and exits with code 1. */
export async function runMain(name: string, main: () => Promise<void>, options: RunMainOptions = {}): Promise<void> {
  try {
    await main();
  } catch (error) {
    const log = createLogger({ name, ...(options.destination === undefined ? {} : { destination: options.destination }) });
    log.fatal({ err: error }, failureReason(error));
    (options.exit ?? process.exit)(1);
  }
}
