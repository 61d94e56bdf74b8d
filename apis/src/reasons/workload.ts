// The condition and Warning Event reasons of a ZookeeperWorkload (the workload controller).
import { reasonCatalog } from './entry.js';

const FAILED_STEP = ['Ready', 'Warning Event'] as const;
const RESTORE_REFUSED = ['Ready', 'Warning Event', 'status.restore'] as const;

export const WORKLOAD_REASONS = reasonCatalog({
  QuorumHealthy: {
    shownIn: ['Ready'],
    means: 'A quorum of voters serves clients and one member leads: reads and writes succeed.',
    todo: 'Nothing. Degraded still names a member that needs attention, if any.',
  },
  NotCreated: {
    shownIn: ['Ready'],
    means: 'The StatefulSet does not exist yet; the controller has not applied it, or it was deleted.',
    todo: 'Wait a few seconds. If it stays, read the workload\'s Events and the controller\'s log for an ApplyChildren failure.',
  },
  Creating: {
    shownIn: ['Ready', 'Progressing', 'Degraded'],
    means: 'The ensemble has not formed its first quorum yet. The message counts pods and serving members.',
    todo: 'Wait. If it stays, look at the pods: `kubectl get pods -l app.kubernetes.io/instance=NAME` and their Events (scheduling, volumes, image pulls).',
  },
  NoQuorum: {
    shownIn: ['Ready'],
    means: 'Fewer voters serve than a quorum needs: clients can neither read nor write. The message counts them.',
    todo: 'Find the members that are down (status.members, Degraded) and why: pod Events, `kubectl logs POD`. Do not delete volumes: they hold the data.',
  },
  NoLeader: {
    shownIn: ['Ready', 'Degraded'],
    means: 'No member leads, or several claim to: an election is under way. Writes wait for it.',
    todo: 'An election takes seconds; if it lasts, read the members\' logs for election or connection errors between pods.',
  },
  Scaling: {
    shownIn: ['Progressing'],
    means: 'Members are joining or leaving: pods outside the committed configuration, or pods not created yet.',
    todo: 'Nothing; the scale trait (`kubectl get zks`) shows the step under way.',
  },
  RollingOut: {
    shownIn: ['Progressing'],
    means: 'Pods are moving to a new template revision; the message counts the updated ones.',
    todo: 'Nothing; with a rolling trait, `kubectl get zkr` shows the pod being restarted.',
  },
  MovingToTls: {
    shownIn: ['Progressing', 'Normal Event'],
    means:
      'A serving ensemble moves its member-to-member traffic to TLS (spec.tls.quorum turned on), in three rolling restarts: members ' +
      'first accept TLS too, then connect with TLS, then refuse plain text. Each step starts once every member runs the one before. ' +
      'The message names the step and counts the restarted pods; status.quorumTls shows it too.',
    todo:
      'Nothing; with a rolling trait bound, each step restarts the leader last. If a step stays, look at the pod not ready: its ' +
      'log names the peer it cannot reach.',
  },
  RotatingCa: {
    shownIn: ['Progressing', 'Normal Event'],
    means:
      'The CA that signs the member certificate changed (the user\'s CA Secret got a new CA, or the controller renewed its own) and ' +
      'the members move to it in three rolling restarts: they first trust the old and the new CA, then present a certificate of the ' +
      'new CA, then trust the new CA only. Each step starts once every member runs the one before. The message names the step and ' +
      'counts the restarted pods.',
    todo:
      'Nothing; with a rolling trait bound, each step restarts the leader last. Clients that verify the members\' certificate must ' +
      'trust the new CA before step 2: ca.crt of `<name>-tls` holds both from step 1 on. If a step stays, look at the pod not ready.',
  },
  UpToDate: {
    shownIn: ['Progressing'],
    means: 'Every pod runs the current template and the committed configuration has the expected voters.',
    todo: 'Nothing.',
  },
  StatefulSetMissing: {
    shownIn: ['Degraded'],
    means: 'The workload ran before but its StatefulSet is gone; the controller applies it again.',
    todo: 'Nothing, unless it stays: then read the Events for an ApplyChildren failure. Someone or something deleted the StatefulSet.',
  },
  MemberNotServing: {
    shownIn: ['Degraded'],
    means: 'A member of the committed configuration does not answer, or answers without serving. The message names the pods.',
    todo: 'Look at those pods: Events, `kubectl logs`, and whether they are scheduled and their volumes bound.',
  },
  LeaderNotVoter: {
    shownIn: ['Degraded'],
    means: 'The leader is not a voter of the committed configuration: a reconfig is finishing.',
    todo: 'Nothing if it clears within seconds; otherwise check the scale trait for a Blocked step.',
  },
  VoterRunsAsObserver: {
    shownIn: ['Degraded'],
    means: 'A member the committed configuration lists as a voter runs as an observer; it has not restarted since a reconfig made it one.',
    todo: 'Nothing if a scale is under way; otherwise restart that pod (the rolling trait\'s restartTrigger does it safely).',
  },
  NotSynced: {
    shownIn: ['Degraded'],
    means: 'A voter is not in sync with the leader, so the ensemble tolerates fewer failures than its size suggests.',
    todo: 'Usually transient after a restart. If it lasts, find the member that is not synced (`kubectl describe zkw`, status.members) and read its pod\'s log.',
  },
  ConfigMismatch: {
    shownIn: ['Degraded'],
    means: 'The committed configuration has a different number of voters than the StatefulSet has pods, with nothing in transit.',
    todo: 'Bind a ZookeeperScale to the workload: it brings the configuration and the pods together one member at a time.',
  },
  Healthy: {
    shownIn: ['Degraded'],
    means: 'Every member serves and is synced.',
    todo: 'Nothing.',
  },
  InvalidSpec: {
    shownIn: ['Ready', 'Warning Event'],
    means: 'The stored spec does not validate (an object written before a schema change, or with validation bypassed). The controller leaves everything as it is.',
    todo: 'Fix the fields the message names; the next reconcile proceeds.',
  },
  ScaleTraitRequired: {
    shownIn: ['ScaleRefused', 'Warning Event'],
    means: 'spec.replicas changed without a bound ZookeeperScale. Resizing the StatefulSet alone would leave ZooKeeper\'s configuration behind, so the change is refused.',
    todo: 'Create a ZookeeperScale for the workload and set its spec.replicas (or `kubectl scale zks/NAME`), or set spec.replicas back.',
  },
  SuperuserSecretInvalid: {
    shownIn: ['Warning Event'],
    means: 'The Secret spec.superuserSecretRef names is missing, or lacks the keys password and digest.',
    todo: 'Create the Secret with both keys, or remove superuserSecretRef to let the controller generate one.',
  },
  TlsCaSecretInvalid: {
    shownIn: ['Ready', 'Warning Event'],
    means:
      'The CA Secret that signs the member certificate is unusable: the Secret spec.tls.certificates.caSecretRef names does not exist, ' +
      'lacks tls.crt or tls.key, holds no CA certificate valid now, or a key that is not the certificate\'s; or it holds a new CA ' +
      'with the subject of a CA the members trust (ZooKeeper keeps one trusted CA per subject, so the rotation could not trust both). ' +
      'The message names the Secret and the problem. Nothing is applied until it is fixed; running members keep their certificate.',
    todo:
      'Fix the Secret as the message says (type kubernetes.io/tls, a CA certificate and its unencrypted PEM key), or remove caSecretRef ' +
      'to let the controller keep a CA of its own (`<name>-tls-ca`; delete that Secret if it is the broken one, and a new CA is made). ' +
      'For a new CA with the subject of the old one: make it with another subject.',
  },
  AuthenticationSecretInvalid: {
    shownIn: ['Ready', 'Warning Event'],
    means:
      'A Secret spec.authentication names is unusable. The SASL users Secret (sasl.usersSecretRef): it does not exist, holds no ' +
      'user, a key is not a user name (letters, digits, ".", "_", "-", starting with a letter or digit), or a password is empty, ' +
      'not UTF-8, or holds a double quote, a backslash, "${", a line break or another control character, which the members\' JAAS ' +
      'file cannot carry. The client CA Secret (x509.clientCaSecretRef): it does not exist, lacks ca.crt, or ca.crt holds no PEM ' +
      'certificate, one that does not parse, a private key, or two certificates with the same subject (ZooKeeper\'s PEM trust store ' +
      'would keep only one). The message names the Secret, the key and the problem, never a password or key. Nothing is applied ' +
      'until it is fixed; running members keep the users and client CA they started with.',
    todo:
      'Fix the Secret as the message says (SASL: one key per user, the password as its value; x509: the PEM certificate(s) of the ' +
      'client CA in ca.crt), or remove that method from spec.authentication.',
  },
  CertManagerMissing: {
    shownIn: ['Ready', 'Warning Event'],
    means:
      'spec.tls.certificates.issuerRef asks cert-manager for the member certificate, and the cluster does not serve ' +
      'certificates.cert-manager.io/v1 (found through API discovery, asked again every minute). Nothing is applied until it is.',
    todo: 'Install cert-manager (its CRDs and its controller), or remove issuerRef to let the workload controller keep the certificate itself.',
  },
  CertificateNotIssued: {
    shownIn: ['Ready', 'Warning Event'],
    means:
      'The Certificate the controller requested from cert-manager (named like the workload\'s `<name>-tls` Secret) has no usable ' +
      'Secret yet: the Secret does not exist, lacks tls.crt, tls.key or ca.crt, or holds a certificate that does not chain to ' +
      'its ca.crt, is for other names, or expired. The message names the Certificate, the Secret and the problem. The members ' +
      'are not created (or not changed) until the Secret is usable.',
    todo:
      'Read the Certificate and its CertificateRequest (`kubectl describe certificate NAME-tls`): the issuer named in issuerRef ' +
      'must exist and be Ready, and cert-manager\'s controller must run. The members need ca.crt: use an issuer that writes it (CA, Vault, self-signed).',
  },
  Restoring: {
    shownIn: ['Ready'],
    means:
      'spec.restoreFrom names a backup and the restore is not done: the ensemble is forming its first quorum, or the backup, ' +
      'verified, is being written into it. The client Service selects no member until it is done, so no client sees a ' +
      'half-restored tree. status.restore names the backup and the zxid it gives back.',
    todo: 'Wait. If it stays, see Creating, and the controller\'s log for the restore.',
  },
  Restored: {
    shownIn: ['Normal Event'],
    means: 'Every znode of the backup is in the ensemble, with its data and ACL, as of the backup\'s zxid; clients are let in.',
    todo: 'Nothing.',
  },
  BackupNotFound: {
    shownIn: RESTORE_REFUSED,
    means: 'The backup restoreFrom names has no manifest in the target (or, for latest, no backup of that workload has one).',
    todo: 'Check restoreFrom.workload, restoreFrom.backup and the target\'s bucket and prefix against the ZookeeperBackup\'s status.runs[].location.',
  },
  BackupInvalid: {
    shownIn: RESTORE_REFUSED,
    means:
      'The backup\'s manifest is not one this controller reads (another format, or not the manifest\'s shape), or an object ' +
      'that matches its checksum holds records that do not parse or do not add up to the manifest\'s count. Nothing is written.',
    todo: 'Restore another backup (restoreFrom is immutable: create a new workload), or one written by a controller of this version.',
  },
  BackupObjectMissing: {
    shownIn: RESTORE_REFUSED,
    means: 'An object the manifest lists is not in the target. Nothing is written.',
    todo: 'The backup is incomplete (deleted by hand, or by a lifecycle rule): restore another one into a new workload.',
  },
  BackupCorrupted: {
    shownIn: RESTORE_REFUSED,
    means:
      'An object of the backup has another size (truncated) or another SHA-256 (altered) than its manifest says. The message ' +
      'names the object. Nothing is written.',
    todo: 'Restore another backup into a new workload; look for what altered the store\'s objects.',
  },
  RestoreTargetNotEmpty: {
    shownIn: RESTORE_REFUSED,
    means:
      'The ensemble holds znodes the restore did not write (a volume reused from another ensemble, or a client that wrote ' +
      'through a member\'s own address): a restore never merges into data. The message names some of them.',
    todo: 'Create the workload anew with empty volumes (delete its PersistentVolumeClaims), or remove restoreFrom by recreating it.',
  },
  RestoreWriteRefused: {
    shownIn: RESTORE_REFUSED,
    means:
      'ZooKeeper refused a znode of the backup (the message names it and the code): most often an ACL of a scheme this ensemble ' +
      'does not serve, such as sasl ACLs restored into a workload without spec.authentication.sasl. What was written stays; ' +
      'clients are kept out.',
    todo: 'Create a new workload whose spec.authentication serves the schemes of the backup\'s ACLs, restoring the same backup.',
  },
  RestoreSourceUnavailable: {
    shownIn: RESTORE_REFUSED,
    means:
      'The target\'s credentials Secret (or CA Secret) is missing or lacks a key, the store did not answer, or the volume server Job ' +
      'reading a PersistentVolumeClaim target did not get ready. Like every refusal, the restore is tried again after a backoff ' +
      '(5 s doubling to 5 minutes: status.restore.attempts and nextAttemptAt), and at once after a change of the spec.',
    todo:
      'Check the Secrets restoreFrom.target names, in this workload\'s namespace, and that the endpoint is reachable from the controller; ' +
      'for a claim, that it exists and can be mounted (the Job\'s pod carries the label workload.zookeeper.zkoam.dev/restore).',
  },
  LeaderChanged: {
    shownIn: ['Warning Event (when no member leads)'],
    means: 'The ensemble lost its leader; a Normal Event follows when a new one is elected.',
    todo: 'Nothing if a Normal LeaderChanged follows within seconds; otherwise see NoLeader.',
  },
  ReadinessChanged: {
    shownIn: ['Warning Event (when not ready)'],
    means: 'The workload stopped being Ready; the note counts serving and synced members.',
    todo: 'Read the Ready and Degraded conditions for the reason.',
  },
  SuperuserSecret: {
    shownIn: FAILED_STEP,
    means: 'Creating or reading the superuser Secret failed; the message quotes the API server.',
    todo: 'Check the controller\'s RBAC for Secrets in that namespace (deploy/workload/cluster-role.yaml) and the quoted error.',
  },
  TlsCertificates: {
    shownIn: FAILED_STEP,
    means: 'Creating the CA Secret or writing the member certificate Secret failed; the message quotes the API server.',
    todo: 'Check the controller\'s RBAC for Secrets in that namespace (deploy/workload/cluster-role.yaml) and the quoted error.',
  },
  AuthenticationSecret: {
    shownIn: FAILED_STEP,
    means: 'Reading the SASL users or client CA Secret, or writing the members\' JAAS Secret `<name>-sasl`, failed; the message quotes the API server.',
    todo: 'Check the controller\'s RBAC for Secrets in that namespace (deploy/workload/cluster-role.yaml) and the quoted error.',
  },
  ApplyChildren: {
    shownIn: FAILED_STEP,
    means: 'Applying a child (ConfigMap, Services, PodDisruptionBudget, StatefulSet, monitoring) failed; the message names it and quotes the API server.',
    todo: 'A conflict means another field manager owns a field: remove it from that manager. A refusal names the field or the admission policy to fix.',
  },
  ReportStatus: {
    shownIn: FAILED_STEP,
    means: 'Writing the workload\'s status failed; the message quotes the API server. The ensemble is not affected.',
    todo: 'Usually transient (the controller retries). If it lasts, check the status subresource RBAC.',
  },
});
export type WorkloadReason = keyof typeof WORKLOAD_REASONS;
/** Why a restore is refused or waits: status.restore.reason and the Ready condition's. */
export type RestoreReason = Extract<
  WorkloadReason,
  'Restoring' | 'BackupNotFound' | 'BackupInvalid' | 'BackupObjectMissing' | 'BackupCorrupted' | 'RestoreTargetNotEmpty' | 'RestoreWriteRefused' | 'RestoreSourceUnavailable'
>;
/** Steps of the workload reconcile whose failure becomes the reason. */
export type WorkloadFailedStep = Extract<WorkloadReason, 'SuperuserSecret' | 'TlsCertificates' | 'AuthenticationSecret' | 'ApplyChildren' | 'ReportStatus'>;
