// A cron schedule (UTC) as the planner takes it: its next tick after a time. croner parses and steps it; what it
// refuses is an invalid spec, reported as such. The CRD's pattern already refused most malformed ones.
import { Cron } from 'croner';

export type CronSchedule = { readonly ok: true; readonly nextAfter: (after: Date) => Date | undefined } | { readonly ok: false; readonly message: string };

export function cronSchedule(expression: string): CronSchedule {
  try {
    const cron = new Cron(expression, { timezone: 'Etc/UTC', paused: true });
    return { ok: true, nextAfter: (after) => cron.nextRun(after) ?? undefined };
  } catch (error) {
    return { ok: false, message: `spec.schedule ${JSON.stringify(expression)} is not a cron schedule: ${error instanceof Error ? error.message : String(error)}` };
  }
}
