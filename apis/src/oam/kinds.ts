// Names of the OAM core.oam.dev/v1alpha2 kinds, as oam-kubernetes-runtime defined them.
import { kindInfo } from '../common/kind.js';

const OAM_GROUP = 'core.oam.dev';
const OAM_VERSION = 'v1alpha2';
const OAM_CATEGORIES = ['crossplane', 'oam'];

export const OAM_COMPONENT = kindInfo({
  group: OAM_GROUP,
  version: OAM_VERSION,
  kind: 'Component',
  plural: 'components',
  singular: 'component',
  shortNames: [],
  categories: OAM_CATEGORIES,
});

export const OAM_APPLICATION_CONFIGURATION = kindInfo({
  group: OAM_GROUP,
  version: OAM_VERSION,
  kind: 'ApplicationConfiguration',
  plural: 'applicationconfigurations',
  singular: 'applicationconfiguration',
  shortNames: ['appconfig'],
  categories: OAM_CATEGORIES,
});

export const OAM_WORKLOAD_DEFINITION = kindInfo({
  group: OAM_GROUP,
  version: OAM_VERSION,
  kind: 'WorkloadDefinition',
  plural: 'workloaddefinitions',
  singular: 'workloaddefinition',
  shortNames: [],
  categories: OAM_CATEGORIES,
});

export const OAM_TRAIT_DEFINITION = kindInfo({
  group: OAM_GROUP,
  version: OAM_VERSION,
  kind: 'TraitDefinition',
  plural: 'traitdefinitions',
  singular: 'traitdefinition',
  shortNames: [],
  categories: OAM_CATEGORIES,
});

export const OAM_SCOPE_DEFINITION = kindInfo({
  group: OAM_GROUP,
  version: OAM_VERSION,
  kind: 'ScopeDefinition',
  plural: 'scopedefinitions',
  singular: 'scopedefinition',
  shortNames: [],
  categories: OAM_CATEGORIES,
});

/** Labels the OAM runtime puts on what it renders. */
export const OAM_LABELS = {
  appName: 'app.oam.dev/name',
  component: 'app.oam.dev/component',
  revision: 'app.oam.dev/revision',
  resourceType: 'app.oam.dev/resourceType',
} as const;
