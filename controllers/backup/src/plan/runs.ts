// The runs a status keeps (pure): the newest first, at most MAX_RECORDED_RUNS, and the newest that succeeded.
import { MAX_RECORDED_RUNS, type BackupRun } from '@zk-oam/apis';

export function recordRun(runs: readonly BackupRun[] | undefined, run: BackupRun): BackupRun[] {
  return [run, ...(runs ?? []).filter((other) => other.id !== run.id)].slice(0, MAX_RECORDED_RUNS);
}

export function lastSuccessful(runs: readonly BackupRun[], previous: BackupRun | undefined): BackupRun | undefined {
  return runs.find((run) => run.outcome === 'Succeeded') ?? previous;
}
