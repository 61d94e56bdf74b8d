// The scopes a component's workload is in, as oam-kubernetes-runtime resolved them: the scope kind must be served and
// registered by a ScopeDefinition (named after its CRD), which says where the scope lists its workloads; pure.
import type { ApplicationComponent, TypedReference } from '@zk-oam/apis';
import { definitionName, findResource, findScopeDefinition, type Catalog } from './catalog.js';
import { problem, type ScopeOutcome } from './outcome.js';

function scopeOf(scopeRef: TypedReference, catalog: Catalog): ScopeOutcome {
  const ref = { apiVersion: scopeRef.apiVersion, kind: scopeRef.kind, name: scopeRef.name };
  const resource = findResource(catalog, ref.apiVersion, ref.kind);
  if (resource === undefined) return problem('KindNotServed', `scope kind ${ref.kind} (${ref.apiVersion}) is not served by the apiserver`, ref);
  const definition = findScopeDefinition(catalog, resource);
  if (definition === undefined) {
    return problem('ScopeDefinitionNotFound', `no ScopeDefinition ${definitionName(resource)} registers scope kind ${ref.kind}, so scope ${ref.name} is not told of its workloads`, ref);
  }
  const path = definition.spec.workloadRefsPath;
  return { kind: 'scope', ref, resource, workloadRefsPath: path === undefined || path === '' ? undefined : path };
}

export function renderScopes(entry: ApplicationComponent, catalog: Catalog): ScopeOutcome[] {
  return (entry.scopes ?? []).map(({ scopeRef }) => scopeOf(scopeRef, catalog));
}
