// The OAM core.oam.dev/v1alpha2 kinds, for clusters without an OAM runtime of their own.
import { applicationConfigurationSpecSchema, applicationConfigurationStatusSchema } from '../oam/application-configuration.js';
import { componentSpecSchema, componentStatusSchema } from '../oam/component.js';
import { scopeDefinitionSpecSchema, traitDefinitionSpecSchema, workloadDefinitionSpecSchema } from '../oam/definitions.js';
import {
  OAM_APPLICATION_CONFIGURATION,
  OAM_COMPONENT,
  OAM_SCOPE_DEFINITION,
  OAM_TRAIT_DEFINITION,
  OAM_WORKLOAD_DEFINITION,
} from '../oam/kinds.js';
import type { CustomResourceKind } from './kinds.js';
import type { PrinterColumn } from './types.js';

const AGE: PrinterColumn = { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' };
const DEFINITION_NAME: PrinterColumn = { name: 'Definition-Name', type: 'string', jsonPath: '.spec.definitionRef.name' };

export const OAM_KINDS: readonly CustomResourceKind[] = [
  {
    info: OAM_COMPONENT,
    scope: 'Namespaced',
    spec: componentSpecSchema,
    status: componentStatusSchema,
    printerColumns: [{ name: 'Workload-Kind', type: 'string', jsonPath: '.spec.workload.kind' }, AGE],
  },
  {
    info: OAM_APPLICATION_CONFIGURATION,
    scope: 'Namespaced',
    spec: applicationConfigurationSpecSchema,
    status: applicationConfigurationStatusSchema,
    printerColumns: [{ name: 'Status', type: 'string', jsonPath: '.status.status' }, AGE],
  },
  { info: OAM_WORKLOAD_DEFINITION, scope: 'Cluster', spec: workloadDefinitionSpecSchema, printerColumns: [DEFINITION_NAME] },
  { info: OAM_TRAIT_DEFINITION, scope: 'Cluster', spec: traitDefinitionSpecSchema, printerColumns: [DEFINITION_NAME] },
  { info: OAM_SCOPE_DEFINITION, scope: 'Cluster', spec: scopeDefinitionSpecSchema, printerColumns: [DEFINITION_NAME] },
];
