// The appconfig controller, started by its own process (main.ts) or beside others in the manager's (controllers/manager):
// its settings from the environment and its wiring into the Manager it is given.
import { applicationConfigurationSchema, type ApplicationComponent } from '@zk-oam/apis';
import {
  controller,
  controllerModule,
  keyOf,
  listersOf,
  processEnvSchema,
  type ControllerProcessParts,
  type KubeObject,
  type Lister,
  type ObjectKey,
  type ResourceType,
  type StartedController,
} from '@zk-oam/runtime';
import { z } from 'zod';
import { appConfigReconciler, controllerRevisionResource, IDENTITY, KindDiscovery, oamResources, SYNCED_CONDITION } from './reconcile/index.js';
import { componentRevisionReconciler, DEFAULT_REVISION_LIMIT, REVISION_COMPONENT_LABEL } from './revisions/index.js';

const configSchema = processEnvSchema.extend({
  /** Between looks at a settled ApplicationConfiguration: its rendered objects are not watched, so drift is repaired this often. */
  IDLE_PERIOD_MS: z.coerce.number().int().min(1_000).default(300_000),
  /** Between looks while a problem is reported (a missing CRD may appear). */
  WAIT_PERIOD_MS: z.coerce.number().int().min(1_000).default(30_000),
  DISCOVERY_TTL_MS: z.coerce.number().int().min(0).default(30_000),
  /** How often an object held back for a data input looks at its source again (v0.3.3: 10 s). */
  DEPENDENCY_CHECK_PERIOD_MS: z.coerce.number().int().min(500).default(10_000),
  /** Component revisions kept per Component, besides those an ApplicationConfiguration pins. */
  REVISION_LIMIT: z.coerce.number().int().min(1).default(DEFAULT_REVISION_LIMIT),
});

/** The ApplicationConfigurations of the namespace with an entry naming the Component or pinning one of its revisions. */
function appConfigsUsing(appConfigs: Lister<KubeObject>, namespace: string, uses: (entry: ApplicationComponent) => boolean): ObjectKey[] {
  return appConfigs
    .list({ namespace })
    .filter((raw) => applicationConfigurationSchema.safeParse(raw).data?.spec.components.some(uses) ?? false)
    .map(keyOf);
}

function usingComponent(appConfigs: Lister<KubeObject>, component: KubeObject): ObjectKey[] {
  return appConfigsUsing(appConfigs, component.metadata.namespace ?? '', (entry) => entry.componentName === component.metadata.name);
}

function usingRevision(appConfigs: Lister<KubeObject>, revision: KubeObject): ObjectKey[] {
  return appConfigsUsing(appConfigs, revision.metadata.namespace ?? '', (entry) => entry.revisionName === revision.metadata.name);
}

/** Wires the appconfig controller into the Manager it is given: its informers, reconcilers and event bus. */
export function startAppconfigController(parts: ControllerProcessParts, config: z.infer<typeof configSchema>): StartedController {
  const { manager, log, identity } = parts;
  const informer = (resource: ResourceType, labelSelector?: string) =>
    manager.kubeObjectInformer(resource, labelSelector === undefined ? {} : { labelSelector });
  const appConfigs = informer(oamResources.applicationConfiguration);
  const components = informer(oamResources.component);
  const revisions = informer(controllerRevisionResource, REVISION_COMPONENT_LABEL);
  const workloadDefinitions = informer(oamResources.workloadDefinition);
  const traitDefinitions = informer(oamResources.traitDefinition);
  const scopeDefinitions = informer(oamResources.scopeDefinition);
  // A definition appearing or changing can turn a reported problem into something to apply, in any namespace.
  const everyAppConfig = (): ObjectKey[] => appConfigs.lister.list().map(keyOf);

  const recorder = manager.eventRecorder(identity, IDENTITY.reportingController);
  const reconcile = appConfigReconciler({
    client: manager.client,
    caches: listersOf({ appConfigs, components, revisions, workloadDefinitions, traitDefinitions, scopeDefinitions }),
    discovery: new KindDiscovery({ client: manager.client, ttlMs: config.DISCOVERY_TTL_MS }),
    recorder,
    now: () => new Date(),
    periods: { idleMs: config.IDLE_PERIOD_MS, waitMs: config.WAIT_PERIOD_MS, dependencyCheckMs: config.DEPENDENCY_CHECK_PERIOD_MS },
  });
  manager.add(
    controller('appconfig')
      .for(appConfigs)
      .watches(components, (component) => usingComponent(appConfigs.lister, component))
      .watches(revisions, (revision) => usingRevision(appConfigs.lister, revision))
      .watches(workloadDefinitions, everyAppConfig)
      .watches(traitDefinitions, everyAppConfig)
      .watches(scopeDefinitions, everyAppConfig)
      .withOptions({ maxConcurrentReconciles: 2 })
      .reportFailures({
        client: manager.client,
        recorder,
        resource: oamResources.applicationConfiguration,
        conditionType: SYNCED_CONDITION,
        fieldManager: `${IDENTITY.fieldManager}-failures`,
        logger: log,
      })
      .reconcile(reconcile),
  );
  manager.add(
    controller('component-revisions')
      .for(components)
      .watches(revisions, (revision) => [{ namespace: revision.metadata.namespace ?? '', name: revision.metadata.labels?.[REVISION_COMPONENT_LABEL] ?? '' }])
      .reconcile(
        componentRevisionReconciler({
          client: manager.client,
          caches: { components: components.lister, revisions: revisions.lister, appConfigs: appConfigs.lister },
          limit: config.REVISION_LIMIT,
        }),
      ),
  );
  log.info({ identity, leaderElection: config.LEADER_ELECTION }, 'starting the appconfig controller');
  return {};
}

/** Its periods under the names the other controllers give the same periods. */
const RENAMED_SETTINGS = [
  { old: 'RESYNC_PERIOD_MS', now: 'IDLE_PERIOD_MS' },
  { old: 'RETRY_PERIOD_MS', now: 'WAIT_PERIOD_MS' },
];

export const appconfigController = controllerModule(IDENTITY, configSchema, startAppconfigController, RENAMED_SETTINGS);
