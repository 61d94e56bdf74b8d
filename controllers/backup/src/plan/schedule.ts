// Whether a run is due now, and if not, when the next one is (pure: the cron arithmetic comes in as `nextAfter`). A
// schedule runs once per tick after the last run started: ticks missed while the controller was down make one run, not
// a burst. A changed runTrigger runs at once; without a schedule, the first reconcile runs the one backup.
import type { BackupRun } from '@zk-oam/apis';

export type RunTrigger = BackupRun['trigger'];

export type RunDecision =
  | { readonly kind: 'run'; readonly trigger: RunTrigger }
  | { readonly kind: 'wait'; readonly reason: 'Suspended' | 'Scheduled' | 'Done'; readonly nextRunAt: Date | undefined };

export interface ScheduleInput {
  readonly spec: { readonly schedule?: string | undefined; readonly runTrigger?: string | undefined; readonly suspend: boolean };
  /** The newest run recorded, if any. */
  readonly lastStartedAt: Date | undefined;
  readonly observedRunTrigger: string | undefined;
  /** When the backup object was created: a schedule's first tick comes after it. */
  readonly createdAt: Date;
  readonly now: Date;
  /** The schedule's first tick strictly after a time; undefined when it has none. */
  readonly nextAfter: (after: Date) => Date | undefined;
}

export function decideRun(input: ScheduleInput): RunDecision {
  const { spec, now } = input;
  if (spec.suspend) return { kind: 'wait', reason: 'Suspended', nextRunAt: undefined };
  if (spec.runTrigger !== undefined && spec.runTrigger !== input.observedRunTrigger) return { kind: 'run', trigger: 'RunTrigger' };
  if (spec.schedule === undefined) {
    return input.lastStartedAt === undefined ? { kind: 'run', trigger: 'Once' } : { kind: 'wait', reason: 'Done', nextRunAt: undefined };
  }
  const due = input.nextAfter(input.lastStartedAt ?? input.createdAt);
  if (due !== undefined && due.getTime() <= now.getTime()) return { kind: 'run', trigger: 'Schedule' };
  return { kind: 'wait', reason: 'Scheduled', nextRunAt: due };
}
