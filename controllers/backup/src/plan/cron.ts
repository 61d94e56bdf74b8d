// A cron schedule (UTC) as the planner takes it: its next tick after a time. croner parses and steps it; what it
// refuses is an invalid spec, reported as such. The CRD's pattern already refused most malformed ones. UTC as an offset
// of 0, not the zone Etc/UTC: croner steps a named zone through an Intl.DateTimeFormat, whose ICU data stays in the
// process (about 6 MiB) and which made each step ten times slower, for the same ticks.
import { Cron } from 'croner';

export type CronSchedule = { readonly ok: true; readonly nextAfter: (after: Date) => Date | undefined } | { readonly ok: false; readonly message: string };

export function cronSchedule(expression: string): CronSchedule {
  try {
    const cron = new Cron(expression, { utcOffset: 0, paused: true });
    return { ok: true, nextAfter: (after) => cron.nextRun(after) ?? undefined };
  } catch (error) {
    return { ok: false, message: `spec.schedule ${JSON.stringify(expression)} is not a cron schedule: ${error instanceof Error ? error.message : String(error)}` };
  }
}
