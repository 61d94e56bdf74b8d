// spec.restoreFrom and status.restore of a ZookeeperWorkload: a new ensemble that starts from a backup (one the
// backup controller wrote, by the contract in ../backup/contract.ts), and how far that restore is.
import { z } from 'zod';
import { BACKUP_ID_PATTERN } from '../backup/contract.js';
import { backupTargetSchema } from '../backup/target.js';
import { dnsSubdomainSchema } from '../common/object-meta.js';
import { withCel } from '../common/structural.js';

/** What `restoreFrom.backup` says to take the newest complete backup (the newest id with a manifest). */
export const LATEST_BACKUP = 'latest';
/** A backup id (its start, `20261129T030000.000Z`) or `latest`. */
export const RESTORE_BACKUP_PATTERN = new RegExp(`^(${LATEST_BACKUP}|${BACKUP_ID_PATTERN.source.slice(1, -1)})$`);

export const restoreFromSchema = withCel(
  z
    .object({
      workload: z
        .object({
          name: dnsSubdomainSchema.describe('Name of the workload the backup was taken of.'),
          namespace: dnsSubdomainSchema.optional().describe('Its namespace; this workload\'s own when omitted.'),
        })
        .describe('The workload the backup was taken of: its backups are under <prefix>/<namespace>/<name>/ in the target.'),
      backup: z
        .string()
        .regex(RESTORE_BACKUP_PATTERN, 'expected a backup id (e.g. 20261129T030000.000Z) or latest')
        .default(LATEST_BACKUP)
        .describe('The backup\'s id (its start time, the last segment of its location), or latest: the newest backup with a manifest.'),
      target: backupTargetSchema.describe(
        'Where the backup is, as the ZookeeperBackup that wrote it names its target: an S3-compatible object store (credentials read in this ' +
          'workload\'s namespace), or a PersistentVolumeClaim in this workload\'s namespace (read through a Job that mounts it); exactly one.',
      ),
    })
    .describe(
      'Start the ensemble from a backup: the restore writes it into the new, empty ensemble before clients are let in (the client ' +
        'Service selects no member until then). Set at creation only; immutable.',
    ),
  { rule: 'self == oldSelf', message: 'restoreFrom is immutable' },
);
export type RestoreFrom = z.infer<typeof restoreFromSchema>;

/** The spec-level rule: restoreFrom is set when the workload is created, or never (a serving ensemble is never merged into). */
export const RESTORE_FROM_AT_CREATION_RULE = {
  rule: 'has(self.restoreFrom) == has(oldSelf.restoreFrom)',
  message: 'restoreFrom can only be set when the workload is created',
  fieldPath: '.restoreFrom',
} as const;

/**
 * Restoring: verified, and writing into the ensemble (or waiting for its quorum); Restored: every znode written,
 * clients let in; Refused: the backup or the ensemble cannot be restored from or into, and nothing is written.
 */
export const RESTORE_PHASES = ['Restoring', 'Restored', 'Refused'] as const;
export type RestorePhase = (typeof RESTORE_PHASES)[number];

export const restoreStatusSchema = z
  .object({
    phase: z.enum(RESTORE_PHASES),
    backup: z.string().max(64).optional().describe('The id of the backup restored (latest resolved).'),
    location: z.string().max(4096).optional().describe('Where it is: s3://<bucket>/<prefix>/<namespace>/<workload>/<id>/, or pvc://<claim>/<prefix>/<namespace>/<workload>/<id>/.'),
    zxid: z
      .string()
      .max(32)
      .optional()
      .describe('The zxid of the source ensemble the backup is consistent at: the restore gives back every znode as it was then.'),
    znodes: z.int().min(0).optional().describe('Znodes in the backup, the root included.'),
    startedAt: z.iso.datetime().optional().describe('When the restore was first written to the status, before any znode.'),
    restoredAt: z.iso.datetime().optional(),
    attempts: z
      .int()
      .min(0)
      .optional()
      .describe('Refused attempts in a row at observedGeneration: each reads and verifies the backup again, the next one after a longer wait.'),
    nextAttemptAt: z.iso
      .datetime()
      .optional()
      .describe('When a refused restore is tried again (backing off up to 5 minutes); a change of the spec (a new generation) tries again at once.'),
    observedGeneration: z.int().min(0).optional().describe('The workload generation the attempts count at.'),
    reason: z.string().max(64).optional().describe('Why it is refused or waits: the Ready condition\'s reason.'),
    message: z.string().max(4096).optional(),
  })
  .describe('The restore of spec.restoreFrom: the backup, the point in time it gives back, and its progress.');
export type RestoreStatus = z.infer<typeof restoreStatusSchema>;
