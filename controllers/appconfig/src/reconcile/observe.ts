// Step: the ApplicationConfiguration, the Components of its namespace and the definitions, from the informer caches,
// each parsed once; what does not validate is left out (and, for the ApplicationConfiguration, reported).
import {
  applicationConfigurationSchema,
  componentSchema,
  ResourceValidationError,
  scopeDefinitionSchema,
  traitDefinitionSchema,
  workloadDefinitionSchema,
  type ApplicationConfiguration,
  type Component,
} from '@zk-oam/apis';
import { formatKey, parseObject, type KubeObject, type Lister, type ObjectKey } from '@zk-oam/runtime';
import type { z } from 'zod';
import type { Catalog } from '../render/catalog.js';
import type { AppConfigCaches } from './dependencies.js';

export type AppConfigReading =
  | { readonly kind: 'absent' }
  | { readonly kind: 'deleting'; readonly raw: KubeObject }
  | { readonly kind: 'invalid'; readonly raw: KubeObject; readonly error: ResourceValidationError }
  | { readonly kind: 'valid'; readonly raw: KubeObject; readonly appConfig: ApplicationConfiguration };

export function readAppConfig(caches: AppConfigCaches, key: ObjectKey): AppConfigReading {
  const raw = caches.appConfigs.get(key);
  if (raw === undefined) return { kind: 'absent' };
  // What it rendered goes with it through garbage collection; only its scopes must be told.
  if (raw.metadata.deletionTimestamp !== undefined) return { kind: 'deleting', raw };
  const appConfig = parseObject(applicationConfigurationSchema, raw, `ApplicationConfiguration ${formatKey(key)}`);
  return appConfig instanceof ResourceValidationError ? { kind: 'invalid', raw, error: appConfig } : { kind: 'valid', raw, appConfig };
}

function parsedAll<S extends z.ZodType>(lister: Lister<KubeObject>, schema: S, namespace?: string): z.output<S>[] {
  return lister.list(namespace === undefined ? {} : { namespace }).flatMap((raw) => {
    const parsed = schema.safeParse(raw);
    return parsed.success ? [parsed.data] : [];
  });
}

export function componentsIn(caches: AppConfigCaches, namespace: string): Map<string, Component> {
  return new Map(parsedAll(caches.components, componentSchema, namespace).map((component) => [component.metadata.name, component] as const));
}

export function definitions(caches: AppConfigCaches): Omit<Catalog, 'resources'> {
  return {
    workloadDefinitions: parsedAll(caches.workloadDefinitions, workloadDefinitionSchema),
    traitDefinitions: parsedAll(caches.traitDefinitions, traitDefinitionSchema),
    scopeDefinitions: parsedAll(caches.scopeDefinitions, scopeDefinitionSchema),
  };
}

/** Every apiVersion the ApplicationConfiguration, its Components (or pinned revisions) and its last status name: the kinds to discover. */
export function apiVersionsUsed(appConfig: ApplicationConfiguration, components: ReadonlyMap<string, Component>, revisions: ReadonlyMap<string, Component>): Set<string> {
  const versions = new Set<string>();
  for (const entry of appConfig.spec.components) {
    const component = entry.revisionName === undefined ? components.get(entry.componentName ?? '') : revisions.get(entry.revisionName);
    if (component !== undefined) versions.add(component.spec.workload.apiVersion);
    for (const { trait } of entry.traits ?? []) versions.add(trait.apiVersion);
    for (const { scopeRef } of entry.scopes ?? []) versions.add(scopeRef.apiVersion);
  }
  for (const version of statusApiVersions(appConfig.status)) versions.add(version);
  return versions;
}

/** Every apiVersion the status names: what was rendered and the scopes it is in, to prune or leave. */
export function statusApiVersions(status: ApplicationConfiguration['status']): Set<string> {
  const versions = new Set<string>();
  for (const workload of status?.workloads ?? []) {
    if (workload.workloadRef !== undefined) versions.add(workload.workloadRef.apiVersion);
    for (const trait of workload.traits ?? []) versions.add(trait.traitRef.apiVersion);
    for (const scope of workload.scopes ?? []) versions.add(scope.scopeRef.apiVersion);
  }
  return versions;
}
