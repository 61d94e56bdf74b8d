// OAM WorkloadDefinition and TraitDefinition: register a CRD (by name) as a workload or trait kind.
import { z } from 'zod';
import { objectMetaSchema } from '../common/object-meta.js';
import { preserveUnknownFields } from '../common/structural.js';
import { OAM_TRAIT_DEFINITION, OAM_WORKLOAD_DEFINITION } from './kinds.js';

const definitionRefSchema = z.object({
  name: z.string().min(1).describe('Name of the CustomResourceDefinition.'),
  version: z.string().optional().describe('Version of the CustomResourceDefinition; its storage version when omitted.'),
});
const extensionSchema = preserveUnknownFields(z.record(z.string(), z.unknown())).optional();

export const workloadDefinitionSpecSchema = z.object({
  definitionRef: definitionRefSchema,
  childResourceKinds: z
    .array(z.object({ apiVersion: z.string(), kind: z.string(), selector: z.record(z.string(), z.string()).optional() }))
    .optional(),
  revisionLabel: z.string().optional(),
  podSpecPath: z.string().optional().describe('Where the workload holds its pod spec, for traits that act on pods.'),
  extension: extensionSchema,
});

export const workloadDefinitionSchema = z.object({
  apiVersion: z.literal(OAM_WORKLOAD_DEFINITION.apiVersion),
  kind: z.literal(OAM_WORKLOAD_DEFINITION.kind),
  metadata: objectMetaSchema,
  spec: workloadDefinitionSpecSchema,
});
export type WorkloadDefinition = z.infer<typeof workloadDefinitionSchema>;

export const traitDefinitionSpecSchema = z.object({
  definitionRef: definitionRefSchema,
  revisionEnabled: z.boolean().optional(),
  workloadRefPath: z.string().optional().describe('Where the trait takes its workloadRef, e.g. spec.workloadRef.'),
  appliesToWorkloads: z.array(z.string()).optional(),
  extension: extensionSchema,
});

export const traitDefinitionSchema = z.object({
  apiVersion: z.literal(OAM_TRAIT_DEFINITION.apiVersion),
  kind: z.literal(OAM_TRAIT_DEFINITION.kind),
  metadata: objectMetaSchema,
  spec: traitDefinitionSpecSchema,
});
export type TraitDefinition = z.infer<typeof traitDefinitionSchema>;
