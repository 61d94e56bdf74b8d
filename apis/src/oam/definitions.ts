// OAM WorkloadDefinition, TraitDefinition and ScopeDefinition: register a CRD (by name) as a workload, trait or scope kind.
import { z } from 'zod';
import { objectMetaSchema } from '../common/object-meta.js';
import { preserveUnknownFields } from '../common/structural.js';
import type { KindInfo } from '../common/kind.js';
import { OAM_SCOPE_DEFINITION, OAM_TRAIT_DEFINITION, OAM_WORKLOAD_DEFINITION } from './kinds.js';

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

/** A cluster-scoped definition object: no status, the spec is all. */
function definitionSchema<Info extends KindInfo, Spec extends z.ZodType>(info: Info, spec: Spec) {
  return z.object({ apiVersion: z.literal(info.apiVersion), kind: z.literal(info.kind), metadata: objectMetaSchema, spec });
}

export const workloadDefinitionSchema = definitionSchema(OAM_WORKLOAD_DEFINITION, workloadDefinitionSpecSchema);
export type WorkloadDefinition = z.infer<typeof workloadDefinitionSchema>;

export const traitDefinitionSpecSchema = z.object({
  definitionRef: definitionRefSchema,
  revisionEnabled: z.boolean().optional(),
  workloadRefPath: z.string().optional().describe('Where the trait takes its workloadRef, e.g. spec.workloadRef.'),
  appliesToWorkloads: z.array(z.string()).optional(),
  extension: extensionSchema,
});

export const traitDefinitionSchema = definitionSchema(OAM_TRAIT_DEFINITION, traitDefinitionSpecSchema);
export type TraitDefinition = z.infer<typeof traitDefinitionSchema>;

export const scopeDefinitionSpecSchema = z.object({
  definitionRef: definitionRefSchema,
  workloadRefsPath: z
    .string()
    .optional()
    .describe('Where a scope of this kind lists its workloads (e.g. spec.workloadRefs); the runtime adds and removes the references. Empty: the scope is not told.'),
  allowComponentOverlap: z.boolean().describe('Whether a component may be in several scopes of this kind.'),
  extension: extensionSchema,
});

export const scopeDefinitionSchema = definitionSchema(OAM_SCOPE_DEFINITION, scopeDefinitionSpecSchema);
export type ScopeDefinition = z.infer<typeof scopeDefinitionSchema>;
