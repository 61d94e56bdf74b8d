// Kubernetes-style status conditions (metav1.Condition), shared by every kind's status.
import { z } from 'zod';
import { listMap } from './structural.js';

export const conditionStatusSchema = z.enum(['True', 'False', 'Unknown']);

export const conditionSchema = z.object({
  type: z
    .string()
    .min(1)
    .max(316)
    .regex(/^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\/)?(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])$/)
    .describe('Type of condition in CamelCase, e.g. Ready.'),
  status: conditionStatusSchema,
  reason: z
    .string()
    .min(1)
    .max(1024)
    .regex(/^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$/)
    .describe('Machine-readable CamelCase reason for the last transition.'),
  message: z.string().max(32768).describe('Human-readable details of the last transition.'),
  observedGeneration: z.int().min(0).optional().describe('The .metadata.generation the condition was set from.'),
  lastTransitionTime: z.iso.datetime().describe('When the status last changed.'),
});
export type Condition = z.infer<typeof conditionSchema>;

export const conditionsSchema = listMap(z.array(conditionSchema).max(32), 'type').describe(
  'Current state of the object, one entry per condition type.',
);

/** The generation the controller last acted on; compare with .metadata.generation to know if status is current. */
export const observedGenerationSchema = z
  .int()
  .min(0)
  .describe('The .metadata.generation this status was computed from.');

/** Kubernetes writes the times of a status in whole seconds (metav1.Time): a condition's, and every other one. */
export function kubernetesTime(now: Date): string {
  return `${now.toISOString().slice(0, 19)}Z`;
}
