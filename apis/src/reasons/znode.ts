// The condition and Event reasons of a ZookeeperZnode (the znode controller).
import { reasonCatalog } from './entry.js';

const NOT_READY = ['Ready', 'Warning Event'] as const;
const FAILED_STEP = ['Synced', 'Warning Event'] as const;
const NORMAL = ['Normal Event'] as const;
const RETRY = 'Nothing if it clears: the controller retries with backoff. If it stays, read the message and the controller\'s log for the object.';

export const ZNODE_REASONS = reasonCatalog({
  Available: {
    shownIn: ['Ready'],
    means: 'The path exists with its ACL, the discovery ConfigMap and Secret are written, and every member knows the tenant\'s principal.',
    todo: 'Nothing: clients use the discovery ConfigMap and Secret named after the object.',
  },
  InvalidSpec: {
    shownIn: NOT_READY,
    means: 'The stored spec does not validate (an object written before a schema change, or with validation bypassed). Nothing is done with it.',
    todo: 'Fix the fields the message names; the next reconcile proceeds.',
  },
  WorkloadNotFound: {
    shownIn: NOT_READY,
    means:
      'No ZookeeperWorkload of that name exists in the namespace. The znode waits for it; deleted meanwhile, its finalizer ' +
      'lets go after a bounded wait (RELEASE_WITHOUT_WORKLOAD_AFTER_MS, 60 s by default) and the path, if any, is left.',
    todo: 'Check spec.workloadRef.name; create the workload, or delete the znode.',
  },
  WorkloadDeleting: {
    shownIn: ['Ready'],
    means: 'The workload is being deleted; its data goes with its volumes, so nothing is done for the znode any more.',
    todo: 'Nothing, or delete the znode too.',
  },
  WorkloadInvalid: {
    shownIn: NOT_READY,
    means: 'The workload does not validate, so how to reach it and whether it has SASL cannot be read.',
    todo: 'Fix the workload (its own InvalidSpec condition names the fields).',
  },
  WorkloadNotShared: {
    shownIn: NOT_READY,
    means:
      'The workload is in another namespace, and its spec.znodes.namespaceSelector does not select this znode\'s namespace ' +
      '(absent, it admits its own namespace only). Nothing is created or written for the znode, and its path claims nothing.',
    todo: 'Label the znode\'s namespace so that the selector selects it, or have the workload\'s owner widen the selector; the znode follows at once.',
  },
  PrincipalMismatch: {
    shownIn: NOT_READY,
    means:
      'The znode\'s principal does not fit how the workload authenticates clients: spec.principal.x509 on a workload without ' +
      'spec.authentication.x509, or no principal on a workload that authenticates clients by certificate alone (a tenant ' +
      'there is known by its certificate\'s subject, which the controller cannot make). Nothing is created or written.',
    todo: 'Set spec.principal.x509.subject to the subject of the certificate the tenant presents, or remove it where the workload has no x509.',
  },
  WorkloadNotServing: {
    shownIn: ['Ready'],
    means: 'No member pod of the workload is ready: the ensemble is starting, restarting, or down.',
    todo: 'Nothing while the ensemble starts; otherwise look at the workload\'s conditions.',
  },
  PathConflict: {
    shownIn: NOT_READY,
    means:
      'Another ZookeeperZnode of the same workload, created earlier, claims this path, a parent of it or a path under it. ' +
      'Nothing is created, written or deleted for this one.',
    todo: 'Delete this ZookeeperZnode and create it with another path (spec.path is immutable).',
  },
  CredentialsPending: {
    shownIn: ['Ready'],
    means:
      'The tenant\'s SASL user is in the workload\'s users Secret, and the members are restarting onto the JAAS file that ' +
      'carries it (each member reads it at start only). The path and the discovery objects are written already.',
    todo: 'Nothing: with a rolling trait the members restart one at a time, the leader last.',
  },
  Deleting: {
    shownIn: ['Ready'],
    means: 'The ZookeeperZnode is being deleted: the path is removed (or kept under reclaimPolicy Retain), then the finalizer goes.',
    todo: 'Nothing.',
  },
  Synced: {
    shownIn: ['Synced'],
    means: 'The last reconcile did all it had to do.',
    todo: 'Nothing.',
  },
  SuperuserSecretUnusable: {
    shownIn: FAILED_STEP,
    means: 'The workload\'s superuser Secret, whose password the admin session authenticates with, cannot be read.',
    todo: 'Check the Secret the workload names in spec.superuserSecretRef (or `<workload>-superuser`).',
  },
  TlsSecretUnusable: {
    shownIn: FAILED_STEP,
    means: 'The CA of the workload\'s member TLS Secret, which the admin session over TLS and the discovery ConfigMap need, cannot be read.',
    todo: 'Check the Secret `<workload>-tls` (ca.crt); the workload controller writes it.',
  },
  ZooKeeperUnavailable: {
    shownIn: FAILED_STEP,
    means: 'No member opened the superuser\'s admin session, or the session was lost during a step.',
    todo: RETRY,
  },
  ZooKeeperRefused: {
    shownIn: FAILED_STEP,
    means: 'ZooKeeper refused an operation on the path (the message names it and ZooKeeper\'s code).',
    todo: RETRY,
  },
  CredentialsWriteFailed: {
    shownIn: FAILED_STEP,
    means: 'The tenant\'s SASL user could not be written to (or removed from) the workload\'s users Secret.',
    todo: RETRY,
  },
  DiscoveryWriteFailed: {
    shownIn: FAILED_STEP,
    means: 'The discovery ConfigMap or Secret could not be applied.',
    todo: RETRY,
  },
  FinalizerFailed: {
    shownIn: FAILED_STEP,
    means: 'The finalizer could not be added or removed.',
    todo: RETRY,
  },
  StatusWriteFailed: {
    shownIn: FAILED_STEP,
    means: 'The status could not be written.',
    todo: RETRY,
  },
  PathCreated: {
    shownIn: NORMAL,
    means: 'The controller created the path (and any missing parent) with the tenant\'s ACL.',
    todo: 'Nothing.',
  },
  PathFound: {
    shownIn: NORMAL,
    means: 'The path was there already, with the tenant\'s ACL, before the status said so: a create whose reply was lost (a member restarted under it), or a path made beforehand with that ACL. The controller took it as the tenant\'s.',
    todo: 'Nothing.',
  },
  CredentialsCreated: {
    shownIn: NORMAL,
    means: 'The controller made the tenant\'s SASL user and wrote it to the workload\'s users Secret and to the discovery Secret.',
    todo: 'Nothing: the members restart onto it.',
  },
  AclRestored: {
    shownIn: NORMAL,
    means: 'The path had another ACL than the tenant\'s (someone changed it as the superuser); the controller set it back.',
    todo: 'Nothing; find out who changed it if that was not meant.',
  },
  DiscoveryPublished: {
    shownIn: NORMAL,
    means: 'The discovery ConfigMap and Secret were written or changed.',
    todo: 'Nothing.',
  },
  PathDeleted: {
    shownIn: NORMAL,
    means: 'The ZookeeperZnode was deleted under reclaimPolicy Delete: its path and everything under it are gone.',
    todo: 'Nothing.',
  },
  PathRetained: {
    shownIn: NORMAL,
    means: 'The ZookeeperZnode was deleted under reclaimPolicy Retain: its path and data stay; the tenant\'s SASL user is removed.',
    todo: 'Nothing; delete the path with zkCli as the superuser when it is no longer wanted.',
  },
  ReleasedWithoutCleanup: {
    shownIn: ['Warning Event'],
    means:
      'The ZookeeperZnode was deleted while its workload was missing or being deleted, and the bounded wait passed: the ' +
      'finalizer went without touching ZooKeeper.',
    todo: 'Nothing if the workload is gone for good; otherwise remove the path by hand.',
  },
});
export type ZnodeReason = keyof typeof ZNODE_REASONS;
