// The OAM API resources the appconfig controller reads and writes, as the runtime's ResourceType values.
import { OAM_APPLICATION_CONFIGURATION, OAM_COMPONENT, OAM_SCOPE_DEFINITION, OAM_TRAIT_DEFINITION, OAM_WORKLOAD_DEFINITION, type KindInfo } from '@zk-oam/apis';
import type { ResourceType } from '@zk-oam/runtime';

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
