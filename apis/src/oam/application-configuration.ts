// OAM ApplicationConfiguration: components instantiated with parameter values and traits.
import { z } from 'zod';
import { observedGenerationSchema } from '../common/conditions.js';
import { customResourceSchema } from '../common/resource.js';
import { intOrString } from '../common/structural.js';
import { embeddedObjectSchema, oamConditionsSchema, typedReferenceSchema } from './common.js';
import { OAM_APPLICATION_CONFIGURATION } from './kinds.js';

export const parameterValueSchema = z.object({
  name: z.string().min(1),
  value: intOrString(z.union([z.int(), z.string()])),
});

export const componentTraitSchema = z.object({
  trait: embeddedObjectSchema.describe('The trait object created for the component.'),
});

export const applicationComponentSchema = z.object({
  componentName: z.string().min(1).optional(),
  revisionName: z.string().min(1).optional(),
  parameterValues: z.array(parameterValueSchema).optional(),
  traits: z.array(componentTraitSchema).optional(),
});
export type ApplicationComponent = z.infer<typeof applicationComponentSchema>;

export const applicationConfigurationSpecSchema = z.object({
  components: z.array(applicationComponentSchema),
});

export const workloadTraitStatusSchema = z.object({
  status: z.string().optional(),
  traitRef: typedReferenceSchema,
  message: z.string().optional(),
});

export const applicationWorkloadStatusSchema = z.object({
  status: z.string().optional(),
  componentName: z.string().optional(),
  componentRevisionName: z.string().optional(),
  workloadRef: typedReferenceSchema.optional(),
  traits: z.array(workloadTraitStatusSchema).optional(),
});
export type ApplicationWorkloadStatus = z.infer<typeof applicationWorkloadStatusSchema>;

export const applicationConfigurationStatusSchema = z.object({
  observedGeneration: observedGenerationSchema.optional(),
  conditions: oamConditionsSchema.optional(),
  status: z.string().optional(),
  workloads: z.array(applicationWorkloadStatusSchema).optional(),
});

export const applicationConfigurationSchema = customResourceSchema(
  OAM_APPLICATION_CONFIGURATION,
  applicationConfigurationSpecSchema,
  applicationConfigurationStatusSchema,
);
export type ApplicationConfiguration = z.infer<typeof applicationConfigurationSchema>;
