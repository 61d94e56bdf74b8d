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

/** v1alpha2 ConditionRequirement: when a data output may be emitted. */
export const dataConditionSchema = z.object({
  op: z.enum(['eq', 'notEq', 'notEmpty']),
  value: z.string().optional(),
  valueFrom: z.object({ fieldPath: z.string() }).optional(),
  fieldPath: z.string().optional(),
});

export const dataOutputSchema = z.object({
  name: z.string().optional().describe('Unique in the ApplicationConfiguration; data inputs name it.'),
  fieldPath: z.string().optional().describe("The field of this component's object whose value is emitted."),
  conditions: z.array(dataConditionSchema).optional(),
});

export const dataInputSchema = z.object({
  valueFrom: z.object({ dataOutputName: z.string() }).optional(),
  toFieldPaths: z.array(z.string()).optional(),
});

export const componentScopeSchema = z.object({ scopeRef: typedReferenceSchema });

export const componentTraitSchema = z.object({
  trait: embeddedObjectSchema.describe('The trait object created for the component.'),
  dataOutputs: z.array(dataOutputSchema).optional(),
  dataInputs: z.array(dataInputSchema).optional(),
});

export const applicationComponentSchema = z.object({
  componentName: z.string().min(1).optional(),
  revisionName: z.string().min(1).optional(),
  dataOutputs: z.array(dataOutputSchema).optional(),
  dataInputs: z.array(dataInputSchema).optional(),
  parameterValues: z.array(parameterValueSchema).optional(),
  traits: z.array(componentTraitSchema).optional(),
  scopes: z.array(componentScopeSchema).optional(),
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
  scopes: z.array(z.object({ status: z.string().optional(), scopeRef: typedReferenceSchema })).optional(),
});
export type ApplicationWorkloadStatus = z.infer<typeof applicationWorkloadStatusSchema>;

export const applicationConfigurationStatusSchema = z.object({
  observedGeneration: observedGenerationSchema.optional(),
  conditions: oamConditionsSchema.optional(),
  status: z.string().optional(),
  workloads: z.array(applicationWorkloadStatusSchema).optional(),
  dependency: z
    .object({
      unsatisfied: z
        .array(
          z.object({
            reason: z.string(),
            from: typedReferenceSchema.extend({ fieldPath: z.string().optional() }),
            to: typedReferenceSchema.extend({ fieldPaths: z.array(z.string()).optional() }),
          }),
        )
        .optional(),
    })
    .optional(),
  historyWorkloads: z.array(z.object({ revision: z.string().optional(), workloadRef: typedReferenceSchema.optional() })).optional(),
});

export const applicationConfigurationSchema = customResourceSchema(
  OAM_APPLICATION_CONFIGURATION,
  applicationConfigurationSpecSchema,
  applicationConfigurationStatusSchema,
);
export type ApplicationConfiguration = z.infer<typeof applicationConfigurationSchema>;
