// The Job that serves a PersistentVolumeClaim target for one run (pure): a pod of the backup image running the volume
// server (volume-main.ts) with the claim mounted, ready once it listens, reached by the controller at its IP. It runs
// as a restricted pod (fsGroup makes the claim writable), without a ServiceAccount token (it calls nothing), owned
// by the ZookeeperBackup (deleted with it), with a deadline in case the controller that started it is gone, and knows
// only the SHA-256 of the run's token.
import { ZOOKEEPER_BACKUP, type PvcTarget, type ZookeeperBackup } from '@zk-oam/apis';
import { VOLUME_PATHS, VOLUME_SERVER_PORT } from '../volume/protocol.js';

/** Labels of the Job and its pod; BACKUP_LABEL names the ZookeeperBackup. */
export const VOLUME_JOB_LABELS = { 'app.kubernetes.io/name': 'zk-oam-backup-volume', 'app.kubernetes.io/part-of': 'zk-oam' } as const;
export const BACKUP_LABEL = 'backup.zookeeper.zkoam.dev/backup';
/** Where the claim is mounted in the pod. */
export const VOLUME_MOUNT_PATH = '/backup';
/** The longest a volume server runs: longer than any run, shorter than a day. */
export const VOLUME_JOB_DEADLINE_SECONDS = 6 * 3600;
const UID = 65532;

/**
 * The Job's name: the backup's uid and the run's time (its id's digits, to the millisecond) make it unique and short
 * enough for the job-name label (63 characters).
 */
export function volumeJobName(backup: ZookeeperBackup, runId: string): string {
  return `zkb-${backup.metadata.uid ?? ''}-${runId.replace(/\D/g, '').slice(-9)}`;
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
  readonly backup: ZookeeperBackup;
  readonly runId: string;
  readonly pvc: PvcTarget;
  readonly image: string;
  readonly tokenSha256: string;
}

export function renderVolumeJob({ backup, runId, pvc, image, tokenSha256 }: VolumeJobInput): VolumeJob {
  const labels = { ...VOLUME_JOB_LABELS, [BACKUP_LABEL]: backup.metadata.name };
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: {
      name: volumeJobName(backup, runId),
      namespace: backup.metadata.namespace ?? '',
      labels,
      ownerReferences: [
        { apiVersion: `${ZOOKEEPER_BACKUP.group}/${ZOOKEEPER_BACKUP.version}`, kind: ZOOKEEPER_BACKUP.kind, name: backup.metadata.name, uid: backup.metadata.uid ?? '', controller: true },
      ],
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
