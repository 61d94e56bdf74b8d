// Cleans up after beds whose owning process died without stopping them (a killed test run): each bed
// records its owner's pid; a temp bed whose owner is gone has its processes killed and its directory removed.
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { isAlive, reapProcessesMentioning } from './reap.js';

const ownerFile = 'owner.pid';

/** Records this process as the owner of the bed in `dir`. */
export function claimBedDir(dir: string): void {
  writeFileSync(join(dir, ownerFile), `${String(process.pid)}\n`);
}

/** Marks a stopped bed as nobody's: a kept directory is not reaped later. */
export function releaseBedDir(dir: string): void {
  rmSync(join(dir, ownerFile), { force: true });
}

function ownerOf(dir: string): number | undefined {
  try {
    const pid = Number(readFileSync(join(dir, ownerFile), 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    // No owner file: the bed is still being created, or was not made by startBed; leave it alone.
    return undefined;
  }
}

/** Reaps every bed directory `<parent>/<prefix>*` whose owner process no longer exists. */
export async function reapAbandonedBeds(parent: string, prefix: string, log: Logger): Promise<void> {
  const candidates = readdirSync(parent).filter((name) => name.startsWith(prefix));
  for (const name of candidates) {
    const dir = join(parent, name);
    const owner = ownerOf(dir);
    if (owner === undefined || isAlive(owner)) continue;
    const killed = await reapProcessesMentioning(`${dir}/`);
    rmSync(dir, { recursive: true, force: true });
    log.warn({ dir, owner, killed: killed.map((p) => p.pid) }, 'removed a bed abandoned by a process that died');
  }
}
