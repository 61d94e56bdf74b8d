// spec and status of a ZookeeperScale trait: the target size, reached one member at a time.
import { z } from 'zod';
import { conditionsSchema, observedGenerationSchema } from '../common/conditions.js';
import { stepTimeoutSecondsSchema, workloadRefSchema } from '../common/workload-ref.js';

export const scaleSpecSchema = z
  .object({
    workloadRef: workloadRefSchema,
    replicas: z.int().min(1).max(31).describe('Target number of members. Odd sizes are recommended.'),
    stepTimeoutSeconds: stepTimeoutSecondsSchema,
    removedMemberVolumePolicy: z
      .enum(['Retain', 'Delete'])
      .default('Retain')
      .describe(
        'What happens to the data volume of a member removed by a scale-down, after it has left the configuration. ' +
          'Retain keeps it, so a later scale-up rejoins from its snapshot and only fetches the difference; ' +
          'Delete frees the storage, and a rejoining member syncs from scratch.',
      ),
  })
  .describe('The desired ensemble size.');
export type ZookeeperScaleSpec = z.infer<typeof scaleSpecSchema>;

export const SCALE_PHASES = ['Idle', 'ScalingUp', 'ScalingDown', 'Blocked', 'Failed'] as const;
export type ScalePhase = (typeof SCALE_PHASES)[number];

export const scaleStepSchema = z
  .object({
    action: z.enum(['Add', 'Remove']),
    pod: z.string().describe('Pod of the member being added or removed.'),
    myid: z.int().min(1).max(255),
    stage: z.string().max(64).optional().describe('Where in the step the controller is, e.g. WaitingForSync, Reconfiguring.'),
    startedAt: z.iso.datetime(),
  })
  .describe('The membership change in progress.');
export type ScaleStep = z.infer<typeof scaleStepSchema>;

export const scaleOperationSchema = z
  .object({
    from: z.int().min(0).describe('Voters in the committed configuration when the operation started.'),
    startedAt: z.iso.datetime(),
  })
  .describe('The scaling operation under way (from the size it started at towards targetReplicas), absent when idle.');
export type ScaleOperation = z.infer<typeof scaleOperationSchema>;

export const scaleStatusSchema = z
  .object({
    observedGeneration: observedGenerationSchema.optional(),
    phase: z.enum(SCALE_PHASES).optional(),
    replicas: z.int().min(0).optional().describe('Current members in the committed ZooKeeper configuration.'),
    targetReplicas: z.int().min(0).optional().describe('The size being worked towards.'),
    selector: z.string().optional().describe('Label selector of the member pods.'),
    operation: scaleOperationSchema.optional(),
    step: scaleStepSchema.optional(),
    conditions: conditionsSchema.optional(),
  })
  .describe('Progress of the scaling.');
export type ZookeeperScaleStatus = z.infer<typeof scaleStatusSchema>;
