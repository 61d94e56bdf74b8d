// OAM Component: a workload template with named parameters an ApplicationConfiguration fills in.
import { z } from 'zod';
import { observedGenerationSchema } from '../common/conditions.js';
import { customResourceSchema } from '../common/resource.js';
import { embeddedObjectSchema, oamConditionsSchema } from './common.js';
import { OAM_COMPONENT } from './kinds.js';

export const componentParameterSchema = z.object({
  name: z.string().min(1).describe('Name ApplicationConfigurations use to set this parameter.'),
  fieldPaths: z.array(z.string().min(1)).min(1).describe('Fields of the workload this parameter overwrites, e.g. spec.replicas.'),
  required: z.boolean().optional(),
  description: z.string().optional(),
});
export type ComponentParameter = z.infer<typeof componentParameterSchema>;

export const componentSpecSchema = z.object({
  workload: embeddedObjectSchema.describe('The workload created for each ApplicationConfiguration that includes this Component.'),
  parameters: z.array(componentParameterSchema).optional(),
});

export const componentStatusSchema = z.object({
  observedGeneration: observedGenerationSchema.optional(),
  conditions: oamConditionsSchema.optional(),
  latestRevision: z.object({ name: z.string(), revision: z.int() }).optional(),
});

export const componentSchema = customResourceSchema(OAM_COMPONENT, componentSpecSchema, componentStatusSchema);
export type Component = z.infer<typeof componentSchema>;
