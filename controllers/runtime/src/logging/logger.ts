// The pino logger every controller uses: JSON lines, level from options, the component's name on each line.
import { pino, type Logger, type LevelWithSilent } from 'pino';

export type { Logger } from 'pino';

export interface LoggerOptions {
  readonly name: string;
  readonly level?: LevelWithSilent;
  /** Where lines go; stdout by default. */
  readonly destination?: NodeJS.WritableStream;
}

export function createLogger(options: LoggerOptions): Logger {
  const config = { name: options.name, level: options.level ?? 'info', base: { pid: process.pid } };
  return options.destination === undefined ? pino(config) : pino(config, options.destination);
}
