// A controller process's last line: run the manager until SIGTERM/SIGINT and set the exit code; for main.ts only.
import type { Logger } from 'pino';
import { LeadershipLostError, type Manager } from './manager.js';
import { abortOnSignals } from './signals.js';

/**
 * Exit code 0 after a signal (reconciles finished, lease released), 1 when leadership is lost or the manager fails.
 * `cleanup` (closing the event bus, say) runs either way.
 */
export async function runUntilSignalled(manager: Pick<Manager, 'run'>, options: { log: Logger; cleanup?: () => Promise<void> }): Promise<void> {
  try {
    await manager.run(abortOnSignals());
    process.exitCode = 0;
  } catch (error) {
    options.log.error({ err: error, lostLeadership: error instanceof LeadershipLostError }, 'controller stopped');
    process.exitCode = 1;
  } finally {
    await options.cleanup?.();
  }
}
