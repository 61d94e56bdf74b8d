// Launches a pod's container with runc: each start a new container (a fresh root layer, as a restarted container on a
// node gets), named after the pod and the start, its output appended to the pod's log.
import { closeSync, openSync } from 'node:fs';
import { join } from 'node:path';
import { startContainer } from '../containers/container-run.js';
import type { ImageBundle } from '../containers/image-bundles.js';
import type { Runc } from '../containers/runc.js';
import type { RunOptions } from '../containers/runtime-spec.js';
import type { ContainerLauncher } from './container-process.js';

export interface RuncLaunch {
  readonly runc: Runc;
  /** Where each container's directory (its bundle) is made. */
  readonly containersDir: string;
  /** The containers' name before the start's number: unique among the pods of the machine, [\w.+-]+. */
  readonly name: string;
  readonly image: ImageBundle;
  readonly run: RunOptions;
  readonly logFile: string;
}

export function runcLauncher(launch: RuncLaunch): ContainerLauncher {
  return async (start) => {
    const id = `${launch.name}_${String(start)}`;
    const output = openSync(launch.logFile, 'a');
    try {
      return await startContainer(launch.runc, { id, dir: join(launch.containersDir, id), image: launch.image, run: launch.run, stdout: output, stderr: output });
    } finally {
      closeSync(output);
    }
  };
}
