// The Job that serves a PersistentVolumeClaim target (pure): a pod of the backup image running the volume server
// (volume-main.ts) with the claim mounted, ready once it listens, reached by its caller at its IP. Its callers are the
// backup controller, for a run, and the workload controller, for a restore (spec.restoreFrom). It runs as a restricted
// pod (fsGroup makes the claim writable), without a ServiceAccount token (it calls nothing), owned by the object it
// serves (deleted with it), with a deadline in case the controller that started it is gone, and knows only the
// SHA-256 of its caller's token.
import { ZOOKEEPER_BACKUP, type PvcTarget, type ZookeeperBackup } from '@zk-oam/apis';
import { VOLUME_PATHS, VOLUME_SERVER_PORT } from '../volume/protocol.js';

/** Labels of the Job and its pod; the owner's label (BACKUP_LABEL for a backup's) names the object it serves. */
export const VOLUME_JOB_LABELS = { 'app.kubernetes.io/name': 'zk-oam-backup-volume', 'app.kubernetes.io/part-of': 'zk-oam' } as const;
export const BACKUP_LABEL = 'backup.zookeeper.zkoam.dev/backup';
/** Where the claim is mounted in the pod. */
export const VOLUME_MOUNT_PATH = '/backup';
/** The longest a volume server runs: longer than any run, shorter than a day. */
export const VOLUME_JOB_DEADLINE_SECONDS = 6 * 3600;
const UID = 65532;

/** The object a volume server serves: its Job's owner, and the label that finds the Jobs it left. */
export interface VolumeJobOwner {
  readonly apiVersion: string;
  readonly kind: string;
  readonly namespace: string;
  readonly name: string;
  readonly uid: string;
  /** The label key whose value is the owner's name on its Jobs. */
  readonly label: string;
}

/**
 * A Job's name: a prefix for people (zkb: a backup's), its owner's uid and the digits of a time (to the millisecond)
 * make it unique and short enough for the job-name label (63 characters).
 */
export function volumeJobName(prefix: string, ownerUid: string, at: string): string {
  return `${prefix}-${ownerUid}-${at.replace(/\D/g, '').slice(-9)}`;
}

/** A backup as the owner of its runs' volume servers. */
export function backupVolumeOwner(backup: ZookeeperBackup): VolumeJobOwner {
  const { name, namespace = '', uid = '' } = backup.metadata;
  return { apiVersion: `${ZOOKEEPER_BACKUP.group}/${ZOOKEEPER_BACKUP.version}`, kind: ZOOKEEPER_BACKUP.kind, namespace, name, uid, label: BACKUP_LABEL };
}

export function pvcLocation(pvc: PvcTarget): string {
  return `pvc://${pvc.claimName}/`;
}

export interface VolumeJob {
  readonly apiVersion: 'batch/v1';
  readonly kind: 'Job';
  readonly metadata: { readonly name: string; readonly namespace: string; readonly labels: Record<string, string>; readonly ownerReferences: readonly unknown[] };
  readonly spec: Record<string, unknown>;
}

export interface VolumeJobInput {
  readonly owner: VolumeJobOwner;
  readonly name: string;
  readonly pvc: PvcTarget;
  readonly image: string;
  readonly tokenSha256: string;
}

export function renderVolumeJob({ owner, name, pvc, image, tokenSha256 }: VolumeJobInput): VolumeJob {
  const labels = { ...VOLUME_JOB_LABELS, [owner.label]: owner.name };
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: {
      name,
      namespace: owner.namespace,
      labels,
      ownerReferences: [{ apiVersion: owner.apiVersion, kind: owner.kind, name: owner.name, uid: owner.uid, controller: true }],
    },
    spec: {
      backoffLimit: 0,
      activeDeadlineSeconds: VOLUME_JOB_DEADLINE_SECONDS,
      ttlSecondsAfterFinished: 300,
      template: {
        metadata: { labels },
        spec: {
          restartPolicy: 'Never',
          automountServiceAccountToken: false,
          enableServiceLinks: false,
          securityContext: { runAsNonRoot: true, runAsUser: UID, runAsGroup: UID, fsGroup: UID, seccompProfile: { type: 'RuntimeDefault' } },
          containers: [
            {
              name: 'volume',
              image,
              command: ['node', '/app/volume-main.mjs'],
              env: [
                { name: 'VOLUME_DIR', value: VOLUME_MOUNT_PATH },
                { name: 'VOLUME_LOCATION', value: pvcLocation(pvc) },
                { name: 'VOLUME_TOKEN_SHA256', value: tokenSha256 },
                { name: 'PORT', value: String(VOLUME_SERVER_PORT) },
              ],
              ports: [{ name: 'http', containerPort: VOLUME_SERVER_PORT }],
              readinessProbe: { httpGet: { path: VOLUME_PATHS.health, port: 'http' }, periodSeconds: 2 },
              resources: { requests: { cpu: '50m', memory: '64Mi' }, limits: { memory: '256Mi' } },
              securityContext: { allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, capabilities: { drop: ['ALL'] } },
              volumeMounts: [{ name: 'backup', mountPath: VOLUME_MOUNT_PATH }],
            },
          ],
          volumes: [{ name: 'backup', persistentVolumeClaim: { claimName: pvc.claimName } }],
        },
      },
    },
  };
}
