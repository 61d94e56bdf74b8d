// The condition and Event reasons of a ZookeeperBackup (the backup controller).
import { reasonCatalog } from './entry.js';

const NOT_READY = ['Ready', 'Warning Event'] as const;
const FAILED_RUN = ['Ready', 'Warning Event', 'a run\'s message'] as const;
const NORMAL = ['Normal Event'] as const;
const NEXT_RUN = 'Read the message; the next scheduled run (or a new runTrigger) tries again.';

export const BACKUP_REASONS = reasonCatalog({
  Available: {
    shownIn: ['Ready'],
    means: 'The last run succeeded: its backup is in the target, with its manifest.',
    todo: 'Nothing: `kubectl get zkb` shows when and where.',
  },
  Scheduled: {
    shownIn: ['Ready'],
    means: 'No run has finished yet; the first one is scheduled (status.nextRunAt).',
    todo: 'Nothing, or change spec.runTrigger to run one now.',
  },
  Suspended: {
    shownIn: ['Ready'],
    means: 'spec.suspend is true: no run starts. Retention still applies.',
    todo: 'Set spec.suspend to false to resume the schedule.',
  },
  InvalidSpec: {
    shownIn: NOT_READY,
    means: 'The stored spec does not validate, or its schedule is not a cron expression the controller can run. Nothing is done with it.',
    todo: 'Fix the fields the message names; the next reconcile proceeds.',
  },
  WorkloadNotFound: {
    shownIn: NOT_READY,
    means: 'No ZookeeperWorkload of that name exists in the namespace. The backup waits for it.',
    todo: 'Check spec.workloadRef.name.',
  },
  WorkloadDeleting: {
    shownIn: ['Ready'],
    means: 'The workload is being deleted; no run starts. The backups already made stay in the target.',
    todo: 'Nothing, or delete the backup too.',
  },
  WorkloadInvalid: {
    shownIn: NOT_READY,
    means: 'The workload does not validate, so how to reach it cannot be read.',
    todo: 'Fix the workload (its own InvalidSpec condition names the fields).',
  },
  WorkloadNotServing: {
    shownIn: ['Ready'],
    means: 'No member pod of the workload is ready: a due run waits for one.',
    todo: 'Nothing while the ensemble starts; otherwise look at the workload\'s conditions.',
  },
  SuperuserSecretUnusable: {
    shownIn: FAILED_RUN,
    means: 'The workload\'s superuser Secret, whose password the backup\'s session reads every znode with, cannot be read.',
    todo: 'Check the Secret the workload names in spec.superuserSecretRef (or `<workload>-superuser`).',
  },
  TlsSecretUnusable: {
    shownIn: FAILED_RUN,
    means: 'The CA of the workload\'s member TLS Secret, which the session over TLS needs, cannot be read.',
    todo: 'Check the Secret `<workload>-tls` (ca.crt); the workload controller writes it.',
  },
  TargetCredentialsUnusable: {
    shownIn: FAILED_RUN,
    means: 'The target\'s credentials Secret or CA Secret is missing or lacks the keys the target names.',
    todo: 'Check spec.target.s3.credentialsSecretRef and caSecretRef.',
  },
  TargetUnavailable: {
    shownIn: FAILED_RUN,
    means: 'The object store refused or did not answer a request (the message names it: a missing bucket, wrong credentials, a TLS failure).',
    todo: NEXT_RUN,
  },
  ZooKeeperUnavailable: {
    shownIn: FAILED_RUN,
    means: 'No member opened the superuser\'s session, or the session was lost while the tree was read.',
    todo: NEXT_RUN,
  },
  ZooKeeperRefused: {
    shownIn: FAILED_RUN,
    means: 'ZooKeeper refused a read (the message names the path and ZooKeeper\'s code).',
    todo: NEXT_RUN,
  },
  ConcurrentChanges: {
    shownIn: FAILED_RUN,
    means:
      'Znodes changed while the tree was read in a way that leaves their state at the dump\'s zxid unknown (changed twice, ' +
      'an ACL set, a child removed, deleted), in every attempt of the run. The message names some of the paths.',
    todo: 'Schedule backups when writes are fewer, or back up again; znodes rewritten faster than a walk of the tree takes cannot be dumped consistently this way.',
  },
  RetentionFailed: {
    shownIn: ['Warning Event'],
    means: 'The backup succeeded, but deleting the backups retention let go of failed; they are tried again after the next run.',
    todo: NEXT_RUN,
  },
  StatusWriteFailed: {
    shownIn: NOT_READY,
    means: 'The status could not be written.',
    todo: 'Nothing if it clears: the controller retries with backoff.',
  },
  BackupSucceeded: {
    shownIn: NORMAL,
    means: 'A run saved the workload\'s persistent znodes; the note says where, how many and at which zxid.',
    todo: 'Nothing.',
  },
  BackupsDeleted: {
    shownIn: NORMAL,
    means: 'Retention deleted backups older than the ones it keeps; the note names them.',
    todo: 'Nothing.',
  },
});
export type BackupReason = keyof typeof BACKUP_REASONS;
