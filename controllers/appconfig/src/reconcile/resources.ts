// The API resources and names the appconfig controller reads and writes, and where it writes the status.
// Its names, one per role, keep their values: each is remembered outside the process (managed fields, the leader
// Lease, logs and dashboards), so a new value would break an upgrade.
import {
  applicationConfigurationStatusSchema,
  controllerIdentity,
  OAM_APPLICATION_CONFIGURATION,
  OAM_COMPONENT,
  OAM_SCOPE_DEFINITION,
  OAM_TRAIT_DEFINITION,
  OAM_WORKLOAD_DEFINITION,
  type ControllerIdentity,
  type KindInfo,
} from '@zk-oam/apis';
import type { ResourceType, StatusTarget } from '@zk-oam/runtime';

/** Its names, one per role (apis' ControllerIdentity says what each is for, and why none may change). */
export const IDENTITY: ControllerIdentity = controllerIdentity('appconfig');

function resourceOf(info: KindInfo, namespaced: boolean): ResourceType {
  return { group: info.group, version: info.version, plural: info.plural, kind: info.kind, namespaced };
}

export const oamResources = {
  applicationConfiguration: resourceOf(OAM_APPLICATION_CONFIGURATION, true),
  component: resourceOf(OAM_COMPONENT, true),
  workloadDefinition: resourceOf(OAM_WORKLOAD_DEFINITION, false),
  traitDefinition: resourceOf(OAM_TRAIT_DEFINITION, false),
  scopeDefinition: resourceOf(OAM_SCOPE_DEFINITION, false),
} as const satisfies Record<string, ResourceType>;

/** Where Component revisions are kept, as oam-kubernetes-runtime keeps them. */
export const controllerRevisionResource: ResourceType = { group: 'apps', version: 'v1', plural: 'controllerrevisions', kind: 'ControllerRevision', namespaced: true };

/** Where the status is written: server-side apply on /status, only when it changed (the kit's writeStatusIfChanged). */
export const APP_CONFIG_STATUS: StatusTarget<typeof applicationConfigurationStatusSchema> = {
  resource: oamResources.applicationConfiguration,
  schema: applicationConfigurationStatusSchema,
  fieldManager: IDENTITY.fieldManager,
};
