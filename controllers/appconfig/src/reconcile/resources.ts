// The API resources and names the appconfig controller reads and writes, and where it writes the status.
// Its names, one per role, keep their values: each is remembered outside the process (managed fields, the leader
// Lease, logs and dashboards), so a new value would break an upgrade.
import {
  applicationConfigurationStatusSchema,
  OAM_APPLICATION_CONFIGURATION,
  OAM_COMPONENT,
  OAM_SCOPE_DEFINITION,
  OAM_TRAIT_DEFINITION,
  OAM_WORKLOAD_DEFINITION,
  type KindInfo,
} from '@zk-oam/apis';
import type { ResourceType, StatusTarget } from '@zk-oam/runtime';

/** Its name in logs. */
export const CONTROLLER_NAME = 'zk-oam-appconfig';

/** Field manager of its writes: what it renders, the status it reports, the scope references and finalizers it patches. */
export const FIELD_MANAGER = 'zk-oam-appconfig';

/** The Lease its replicas elect their leader by. */
export const LEADER_ELECTION_LEASE = 'zk-oam-appconfig';

/** The reportingController of the Events it records. */
export const REPORTING_CONTROLLER = 'core.oam.dev/appconfig';

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
  fieldManager: FIELD_MANAGER,
};
