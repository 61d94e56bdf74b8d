// Keeps a bed component running the way a kubelet keeps a static pod running: when it exits on its own
// (kube-controller-manager exits if the apiserver goes away while it initialises), it is started again.
import type { Logger } from 'pino';
import { describeExit, type ManagedProcess } from './process.js';
import { pause } from '@zk-oam/runtime';

/** What the control plane needs of any child: its current pid, and a way to stop it. */
export type BedChild = Pick<ManagedProcess, 'name' | 'pid' | 'isRunning' | 'stop' | 'killNow'>;

const restartDelayMs = 1_000;

/** Watches `first`; each unexpected exit starts a replacement with `restart` after a short delay. */
export function supervise(first: ManagedProcess, restart: () => Promise<ManagedProcess>, log: Logger): BedChild {
  let current = first;
  let stopping = false;
  let restarts = 0;
  const watch = async (): Promise<void> => {
    while (!stopping) {
      const status = await current.exited;
      if (stopping) return;
      restarts += 1;
      const { name, pid, logFile } = current;
      log.warn({ process: name, pid, restarts, logFile }, `${name} ${describeExit(status)}; restarting it`);
      await pause(restartDelayMs);
      if (stopping) return;
      try {
        current = await restart();
        if (stopping) await current.stop();
      } catch (error) {
        log.error({ process: current.name, err: error }, `${current.name} could not be restarted; trying again`);
      }
    }
  };
  const watching = watch();
  return {
    name: first.name,
    get pid() {
      return current.pid;
    },
    isRunning: () => current.isRunning(),
    stop: async (graceMs?: number) => {
      stopping = true;
      const status = await current.stop(graceMs);
      // A replacement may be starting right now; wait until the watcher has stopped it too.
      await watching;
      return status;
    },
    killNow: () => {
      stopping = true;
      current.killNow();
    },
  };
}
