// Step: telling scopes which workloads are in them, as oam-kubernetes-runtime did. A workload's reference is added to
// the list at its ScopeDefinition's workloadRefsPath, and removed when the workload leaves the scope or the
// ApplicationConfiguration is deleted. Each change applies only to the list it was computed from, so a concurrent
// writer makes it fail and be retried rather than lose a reference.
import type { ApplicationConfiguration, TypedReference } from '@zk-oam/apis';
import { apiVersionOf, isApiError, jsonPatchObject, mergePatchObject, type KubeClient, type ResourceType } from '@zk-oam/runtime';
import { definitionName, findScopeDefinition, type Catalog } from '../render/catalog.js';
import { parseFieldPath, readField, withField } from '../render/field-path.js';
import type { RenderedComponent, ScopeMembership } from '../render/outcome.js';
import type { ApplyResult } from './apply-rendered.js';
import { IDENTITY } from './resources.js';
import { readLiveObject } from './read-live.js';
import { refKey, type LiveObject } from './refs.js';

type ApplicationConfigurationStatus = NonNullable<ApplicationConfiguration['status']>;

/** Why a scope was not told of a workload; each is a condition reason and an Event reason. */
export type ScopeRefusalReason = 'ScopeNotFound' | 'InvalidScope' | 'Forbidden';

export type ScopeResult = { readonly kind: 'told' } | { readonly kind: 'refused'; readonly reason: ScopeRefusalReason; readonly message: string };

/** A workload in a scope, as the status records it. */
export interface ScopeEntry {
  readonly workload: TypedReference;
  readonly scope: TypedReference;
}

export function entryKey(entry: ScopeEntry): string {
  return `${refKey(entry.workload)} in ${refKey(entry.scope)}`;
}

const sameRef = (a: TypedReference) => (value: unknown): boolean => {
  const b = value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : {};
  return b['apiVersion'] === a.apiVersion && b['kind'] === a.kind && b['name'] === a.name;
};

/** The JSON pointer of a field path made of field names only. */
function pointerOf(path: string): string {
  return parseFieldPath(path)
    .map((segment) => `/${(segment.kind === 'field' ? segment.name : String(segment.index)).replaceAll('~', '~0').replaceAll('/', '~1')}`)
    .join('');
}

/**
 * Writes `list` at `path`. A list that is there is replaced only while it still holds what was read (a JSON patch
 * test), which the scope's own controller writing its status does not disturb; a missing one is added under the
 * resourceVersion read.
 */
async function writeList(client: KubeClient, resource: ResourceType, live: LiveObject, namespace: string, path: string, read: unknown[] | undefined, list: unknown[]): Promise<void> {
  const key = { namespace, name: String(live.metadata['name']) };
  if (read === undefined) {
    await mergePatchObject(client, resource, key, withField({ metadata: { resourceVersion: live.metadata.resourceVersion } }, path, list), IDENTITY.fieldManager);
    return;
  }
  const pointer = pointerOf(path);
  await jsonPatchObject(client, resource, key, [{ op: 'test', path: pointer, value: read }, { op: 'replace', path: pointer, value: list }], IDENTITY.fieldManager);
}

async function addToScope(client: KubeClient, scope: ScopeMembership, workload: TypedReference, namespace: string): Promise<ScopeResult> {
  const path = scope.workloadRefsPath;
  if (path === undefined) return { kind: 'told' };
  const what = `${scope.ref.kind} ${scope.ref.name}`;
  // A merge patch replaces lists whole: a path through a list would drop that list's other elements.
  if (parseFieldPath(path).some((segment) => segment.kind === 'index')) {
    return { kind: 'refused', reason: 'InvalidScope', message: `scope ${what}: workloadRefsPath ${path} goes through a list; only field names are supported` };
  }
  const live = await readLiveObject(client, scope.resource, { namespace, name: scope.ref.name });
  if (live === undefined) return { kind: 'refused', reason: 'ScopeNotFound', message: `scope ${what} does not exist, so ${workload.kind} ${workload.name} is not in it yet` };
  const read = readField(live, path);
  if (read !== undefined && !Array.isArray(read)) return { kind: 'refused', reason: 'InvalidScope', message: `scope ${what} holds no list at ${path}, its ScopeDefinition's workloadRefsPath` };
  if (read?.some(sameRef(workload)) === true) return { kind: 'told' };
  const { apiVersion, kind, name } = workload;
  try {
    await writeList(client, scope.resource, live, namespace, path, read, [...(read ?? []), { apiVersion, kind, name }]);
  } catch (error) {
    if (isApiError(error, 403)) {
      const hint = 'grant get and patch through a ClusterRole labelled oam.zkoam.dev/aggregate-to-appconfig=true';
      return { kind: 'refused', reason: 'Forbidden', message: `scope ${what}: the appconfig controller may not patch it (${hint})` };
    }
    if (isApiError(error, 422)) return { kind: 'refused', reason: 'InvalidScope', message: `scope ${what} refused ${workload.kind} ${workload.name} at ${path}: ${(error as Error).message}` };
    throw error;
  }
  return { kind: 'told' };
}

/** Adds each applied workload to the scopes its component names; results by entryKey. */
export async function tellScopes(
  client: KubeClient,
  rendered: readonly RenderedComponent[],
  applied: ReadonlyMap<string, ApplyResult>,
  namespace: string,
): Promise<Map<string, ScopeResult>> {
  const results = new Map<string, ScopeResult>();
  for (const component of rendered) {
    const { workload } = component;
    if (workload.kind !== 'rendered' || applied.get(refKey(workload.ref))?.kind !== 'applied') continue;
    for (const scope of component.scopes) {
      if (scope.kind !== 'scope') continue;
      results.set(entryKey({ workload: workload.ref, scope: scope.ref }), await addToScope(client, scope, workload.ref, namespace));
    }
  }
  return results;
}

/** Every workload-in-scope the status records. */
export function scopeEntries(status: ApplicationConfigurationStatus | undefined): ScopeEntry[] {
  return (status?.workloads ?? []).flatMap(({ workloadRef, scopes }) =>
    workloadRef === undefined ? [] : (scopes ?? []).map(({ scopeRef }) => ({ workload: workloadRef, scope: scopeRef })),
  );
}

/** What `previous` records and `next` no longer does: workloads that left a scope. */
export function departedEntries(previous: readonly ScopeEntry[], next: readonly ScopeEntry[]): ScopeEntry[] {
  const kept = new Set(next.map(entryKey));
  return previous.filter((entry, index) => !kept.has(entryKey(entry)) && previous.findIndex((other) => entryKey(other) === entryKey(entry)) === index);
}

/** Removes the workload from the scope; true when the scope changed. A scope or scope kind that is gone holds nothing. */
async function removeFromScope(client: KubeClient, entry: ScopeEntry, catalog: Pick<Catalog, 'resources' | 'scopeDefinitions'>, namespace: string): Promise<boolean> {
  const resource = catalog.resources.find((candidate) => apiVersionOf(candidate) === entry.scope.apiVersion && candidate.kind === entry.scope.kind);
  if (resource === undefined) return false;
  const live = await readLiveObject(client, resource, { namespace, name: entry.scope.name });
  if (live === undefined) return false;
  const definition = findScopeDefinition(catalog, resource);
  if (definition === undefined) {
    throw new Error(`cannot remove ${entry.workload.kind} ${entry.workload.name} from scope ${entry.scope.kind} ${entry.scope.name}: no ScopeDefinition ${definitionName(resource)} says where it lists its workloads`);
  }
  const path = definition.spec.workloadRefsPath;
  if (path === undefined || path === '') return false;
  const read = readField(live, path);
  if (!Array.isArray(read)) return false;
  const remaining = read.filter((value) => !sameRef(entry.workload)(value));
  if (remaining.length === read.length) return false;
  await writeList(client, resource, live, namespace, path, read, remaining);
  return true;
}

/** Removes each entry's workload from its scope; returns the entries whose scope changed. Failures are thrown (retried). */
export async function leaveScopes(
  client: KubeClient,
  entries: readonly ScopeEntry[],
  catalog: Pick<Catalog, 'resources' | 'scopeDefinitions'>,
  namespace: string,
): Promise<ScopeEntry[]> {
  const left: ScopeEntry[] = [];
  for (const entry of entries) if (await removeFromScope(client, entry, catalog, namespace)) left.push(entry);
  return left;
}
