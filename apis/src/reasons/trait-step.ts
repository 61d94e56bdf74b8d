// Reasons of a failed step of a trait's reconcile, shared by the scale and rolling traits: the same failure carries
// the same reason in both, and the steps their messages name are the same.
import { reasonCatalog } from './entry.js';

/** The steps of a trait's reconcile; a failure's message names one (`Act for ZookeeperRolling ns/r failed (ReconfigFailed): …`). */
export type TraitStep = 'Bind' | 'Unbind' | 'Observe' | 'Lock' | 'Act' | 'ReportStatus';

const FAILED_STEP = ['Ready', 'Warning Event'] as const;

export const TRAIT_STEP_REASONS = reasonCatalog({
  BindingFailed: {
    shownIn: FAILED_STEP,
    means: 'Binding the trait to the workload, or unbinding a deleted trait (owner reference, finalizer, annotation, disruption Lease), failed; the message quotes the API server.',
    todo: 'Check the trait controller\'s RBAC on ZookeeperWorkloads and the quoted error.',
  },
  LockFailed: { shownIn: FAILED_STEP, means: 'Taking, renewing or releasing the disruption Lease failed.', todo: 'Check the controller\'s RBAC on Leases in the workload\'s namespace.' },
  ObservationFailed: { shownIn: FAILED_STEP, means: 'Reading the workload\'s StatefulSet, pods, claims or members failed.', todo: 'Read the quoted error; usually transient.' },
  SuperuserSecretUnusable: { shownIn: FAILED_STEP, means: 'The superuser Secret (a reconfig needs its password) is missing or has no password key.', todo: 'Check the Secret <workload>-superuser, or the one spec.superuserSecretRef names.' },
  TlsSecretUnusable: {
    shownIn: FAILED_STEP,
    means: "The workload has a secure client port, so the superuser's session goes over TLS, but its member TLS Secret <workload>-tls is missing or has no ca.crt.",
    todo: "The workload controller keeps that Secret: read the workload's Ready condition (TlsCaSecretInvalid names the problem).",
  },
  ReconfigFailed: { shownIn: FAILED_STEP, means: 'ZooKeeper refused or did not answer the reconfig; the next observation decides whether it took effect.', todo: 'Usually transient. If it repeats, read the leader\'s log for the reconfig.' },
  StatusWriteFailed: {
    shownIn: FAILED_STEP,
    means: 'Writing the trait\'s status failed; the ensemble is not affected (a rolling trait restarts no pod before its status is written).',
    todo: 'Usually transient.',
  },
});
export type TraitStepReason = keyof typeof TRAIT_STEP_REASONS;
