// spec and status of a ZookeeperBackup: which workload, when (a cron schedule, or once), how many backups are kept,
// and where they go; each run's record and the last successful one.
import { z } from 'zod';
import { conditionsSchema, observedGenerationSchema } from '../common/conditions.js';
import { withCel } from '../common/structural.js';
import { workloadRefSchema } from '../common/workload-ref.js';
import { backupTargetSchema } from './target.js';

/**
 * Five cron fields (minute hour day-of-month month day-of-week), six with seconds first (croner's form, e.g.
 * "0,20,40 * * * * *": every 20 seconds), or one of the @ shorthands. The controller parses it fully; this pattern is what
 * the CRD refuses before it gets there.
 */
export const CRON_PATTERN = /^(@(yearly|annually|monthly|weekly|daily|midnight|hourly)|[0-9A-Za-z*/,?-]+( [0-9A-Za-z*/,?-]+){4,5})$/;

export const retentionSchema = withCel(
  z
    .object({
      count: z.int().min(1).max(1000).optional().describe('The newest successful backups to keep; older ones are deleted from the target.'),
      maxAgeHours: z.int().min(1).max(87_600).optional().describe('Successful backups older than this are deleted from the target.'),
    })
    .refine((retention) => retention.count !== undefined || retention.maxAgeHours !== undefined, { message: 'retention needs count, maxAgeHours, or both' })
    .describe('Which backups are kept: the newest `count`, none older than `maxAgeHours`, whichever keeps fewer; the newest successful backup is always kept.'),
  { rule: 'has(self.count) || has(self.maxAgeHours)', message: 'retention needs count, maxAgeHours, or both' },
);
export type BackupRetention = z.infer<typeof retentionSchema>;

export const backupSpecSchema = z
  .object({
    workloadRef: workloadRefSchema,
    schedule: z
      .string()
      .max(128)
      .regex(CRON_PATTERN, 'expected a cron schedule: five fields (minute hour day-of-month month day-of-week), six with seconds first, or @daily, @hourly, ...')
      .optional()
      .describe('When backups run, in cron syntax (UTC), e.g. "0 3 * * *" (a sixth field first counts seconds). Without it the backup runs once, and again whenever runTrigger changes.'),
    runTrigger: z.string().max(253).optional().describe('Change this (a timestamp or nonce) to run a backup now, scheduled or not.'),
    suspend: z.boolean().default(false).describe('Start no run while true; retention still applies.'),
    retention: retentionSchema.default({ count: 7 }),
    target: backupTargetSchema,
  })
  .describe('Backups of the persistent znodes of a ZookeeperWorkload: when, how many are kept, and where.');
export type ZookeeperBackupSpec = z.infer<typeof backupSpecSchema>;

export const BACKUP_OUTCOMES = ['Succeeded', 'Failed'] as const;
export type BackupOutcome = (typeof BACKUP_OUTCOMES)[number];

export const backupRunSchema = z.object({
  id: z.string().max(64).describe('The backup\'s id: its start time, e.g. 20261129T030000.000Z; the last segment of its location.'),
  startedAt: z.iso.datetime(),
  finishedAt: z.iso.datetime(),
  outcome: z.enum(BACKUP_OUTCOMES),
  trigger: z.enum(['Schedule', 'Once', 'RunTrigger']).describe('What started it.'),
  location: z.string().max(4096).optional().describe('Where it is: s3://<bucket>/<prefix>/<namespace>/<workload>/<id>/.'),
  zxid: z.string().max(32).optional().describe('The zxid the backup is consistent at (hexadecimal, as ZooKeeper prints it).'),
  znodes: z.int().min(0).optional().describe('Persistent znodes saved.'),
  member: z.string().max(253).optional().describe('The member pod whose session the dump read (a follower whenever one was ready): the leader answers only its sync.'),
  sizeBytes: z.int().min(0).optional().describe('Bytes stored, the manifest included.'),
  message: z.string().max(4096).optional().describe('Why it failed.'),
});
export type BackupRun = z.infer<typeof backupRunSchema>;

/** Runs the status keeps: the most recent ones, successful or not. */
export const MAX_RECORDED_RUNS = 20;

export const backupStatusSchema = z
  .object({
    observedGeneration: observedGenerationSchema.optional(),
    runs: z.array(backupRunSchema).max(MAX_RECORDED_RUNS).optional().describe('The most recent runs, newest first.'),
    lastSuccessful: backupRunSchema.optional().describe('The newest run that succeeded.'),
    observedRunTrigger: z.string().max(253).optional().describe('The runTrigger the last run answered.'),
    nextRunAt: z.iso.datetime().optional().describe('When the schedule runs the next backup.'),
    conditions: conditionsSchema.optional(),
  })
  .describe('Each run\'s record, the last successful one, the next scheduled run, and the Ready condition.');
export type ZookeeperBackupStatus = z.infer<typeof backupStatusSchema>;
