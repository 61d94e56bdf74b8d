// The custom resource kinds this project defines, with what their CRDs add beyond the schema.
import type { z } from 'zod';
import { ZOOKEEPER_BACKUP } from '../backup/kind.js';
import { backupSpecSchema, backupStatusSchema } from '../backup/spec.js';
import type { KindInfo } from '../common/kind.js';
import type { CelRule } from '../common/structural.js';
import { ZOOKEEPER_ROLLING } from '../rolling/kind.js';
import { rollingSpecSchema, rollingStatusSchema } from '../rolling/spec.js';
import { ZOOKEEPER_SCALE } from '../scale/kind.js';
import { scaleSpecSchema, scaleStatusSchema } from '../scale/spec.js';
import { MAX_WORKLOAD_NAME_LENGTH } from '../workload/contract.js';
import { ZOOKEEPER_WORKLOAD } from '../workload/kind.js';
import { workloadSpecSchema } from '../workload/spec.js';
import { workloadStatusSchema } from '../workload/status.js';
import { ZOOKEEPER_ZNODE } from '../znode/kind.js';
import { znodeSpecSchema, znodeStatusSchema } from '../znode/spec.js';
import type { CustomResourceDefinitionVersion, PrinterColumn } from './types.js';

export interface CustomResourceKind {
  info: KindInfo;
  scope: 'Namespaced' | 'Cluster';
  spec: z.ZodType;
  status?: z.ZodType;
  scale?: NonNullable<CustomResourceDefinitionVersion['subresources']>['scale'];
  printerColumns: PrinterColumn[];
  /** CEL rules on the whole object, e.g. on metadata.name (the only place the apiserver lets CEL read it). */
  objectRules?: CelRule[];
}

const AGE: PrinterColumn = { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' };
const PHASE: PrinterColumn = { name: 'Phase', type: 'string', jsonPath: '.status.phase' };
const WORKLOAD: PrinterColumn = { name: 'Workload', type: 'string', jsonPath: '.spec.workloadRef.name' };

export const ZOOKEEPER_KINDS: readonly CustomResourceKind[] = [
  {
    info: ZOOKEEPER_WORKLOAD,
    scope: 'Namespaced',
    spec: workloadSpecSchema,
    status: workloadStatusSchema,
    scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas', labelSelectorPath: '.status.selector' },
    objectRules: [
      {
        rule: `self.metadata.name.size() <= ${String(MAX_WORKLOAD_NAME_LENGTH)}`,
        message:
          `metadata.name must be at most ${String(MAX_WORKLOAD_NAME_LENGTH)} characters: the StatefulSet's pods, their revision ` +
          'label and the <name>-headless and <name>-client Services are named after it',
        reason: 'FieldValueInvalid',
      },
    ],
    printerColumns: [
      { name: 'Ready', type: 'integer', jsonPath: '.status.readyReplicas', description: 'Members serving and synced' },
      { name: 'Members', type: 'integer', jsonPath: '.status.replicas', description: 'Members in the committed configuration' },
      { name: 'Desired', type: 'integer', jsonPath: '.spec.replicas', description: 'Desired members' },
      { name: 'Leader', type: 'string', jsonPath: '.status.leader' },
      PHASE,
      { name: 'Version', type: 'string', jsonPath: '.spec.image.tag', priority: 1 },
      { name: 'Config', type: 'string', jsonPath: '.status.configVersion', priority: 1, description: 'Committed dynamic config version' },
      { name: 'Quorum TLS', type: 'string', jsonPath: '.status.quorumTls', priority: 1, description: 'How members talk to each other, or the step of a move to TLS' },
      AGE,
    ],
  },
  {
    info: ZOOKEEPER_SCALE,
    scope: 'Namespaced',
    spec: scaleSpecSchema,
    status: scaleStatusSchema,
    scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas', labelSelectorPath: '.status.selector' },
    printerColumns: [
      WORKLOAD,
      { name: 'Current', type: 'integer', jsonPath: '.status.replicas' },
      { name: 'Target', type: 'integer', jsonPath: '.spec.replicas' },
      PHASE,
      { name: 'Step', type: 'string', jsonPath: '.status.step.pod', description: 'Member being added or removed' },
      AGE,
    ],
  },
  {
    info: ZOOKEEPER_ROLLING,
    scope: 'Namespaced',
    spec: rollingSpecSchema,
    status: rollingStatusSchema,
    printerColumns: [
      WORKLOAD,
      { name: 'Updated', type: 'integer', jsonPath: '.status.updatedReplicas' },
      { name: 'Pending', type: 'integer', jsonPath: '.status.pendingReplicas' },
      PHASE,
      { name: 'Pod', type: 'string', jsonPath: '.status.currentPod', priority: 1, description: 'Pod being restarted' },
      { name: 'Paused', type: 'boolean', jsonPath: '.spec.paused', priority: 1 },
      { name: 'Handover', type: 'string', jsonPath: '.spec.leaderHandover', priority: 1, description: 'How the leader gives up leadership' },
      AGE,
    ],
  },
  {
    info: ZOOKEEPER_ZNODE,
    scope: 'Namespaced',
    spec: znodeSpecSchema,
    status: znodeStatusSchema,
    printerColumns: [
      WORKLOAD,
      { name: 'Path', type: 'string', jsonPath: '.status.path' },
      { name: 'Exists', type: 'boolean', jsonPath: '.status.exists', description: 'Whether the path existed at the last look' },
      { name: 'Ready', type: 'string', jsonPath: '.status.conditions[?(@.type=="Ready")].status' },
      { name: 'Reclaim', type: 'string', jsonPath: '.spec.reclaimPolicy', priority: 1, description: 'What happens to the path on deletion' },
      { name: 'Connect', type: 'string', jsonPath: '.status.connectString', priority: 1, description: 'Connect string with the path as chroot' },
      AGE,
    ],
  },
  {
    info: ZOOKEEPER_BACKUP,
    scope: 'Namespaced',
    spec: backupSpecSchema,
    status: backupStatusSchema,
    printerColumns: [
      WORKLOAD,
      { name: 'Schedule', type: 'string', jsonPath: '.spec.schedule' },
      { name: 'Last Success', type: 'date', jsonPath: '.status.lastSuccessful.finishedAt', description: 'When the newest successful backup finished' },
      { name: 'Znodes', type: 'integer', jsonPath: '.status.lastSuccessful.znodes', description: 'Znodes in the newest successful backup' },
      { name: 'Ready', type: 'string', jsonPath: '.status.conditions[?(@.type=="Ready")].status' },
      { name: 'Zxid', type: 'string', jsonPath: '.status.lastSuccessful.zxid', priority: 1, description: 'The zxid the newest successful backup is consistent at' },
      { name: 'Location', type: 'string', jsonPath: '.status.lastSuccessful.location', priority: 1 },
      { name: 'Next', type: 'date', jsonPath: '.status.nextRunAt', priority: 1, description: 'When the next scheduled run starts' },
      AGE,
    ],
  },
];
