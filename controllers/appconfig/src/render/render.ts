// Renders an ApplicationConfiguration into the workloads and traits to apply, the way oam-kubernetes-runtime did;
// pure: the same ApplicationConfiguration, Components and catalog always give the same objects.
import type { ApplicationComponent, ApplicationConfiguration, Component, EmbeddedObject, TypedReference } from '@zk-oam/apis';
import type { ApplyConfiguration, OwnerReference } from '@zk-oam/runtime';
import { findResource, findTraitDefinition, findWorkloadDefinition, traitApplies, definitionName, type Catalog } from './catalog.js';
import { FieldPathError, withField } from './field-path.js';
import { currentRevisionName } from '../revisions/plan.js';
import { controllerOwner, defaultTraitName, oamLabels, passedMetadata, RESOURCE_TYPE, type PassedMetadata, type ResourceTypeLabel } from './identity.js';
import { problem, type RenderedComponent, type RenderedObject, type RenderOutcome } from './outcome.js';
import { fillParameters } from './parameters.js';
import { renderScopes } from './scopes.js';

export interface RenderInput {
  readonly appConfig: ApplicationConfiguration;
  /** The Components of the ApplicationConfiguration's namespace, by name. */
  readonly components: ReadonlyMap<string, Component>;
  /** The Components its Component revisions (ControllerRevisions) hold, by revision name. */
  readonly revisions: ReadonlyMap<string, Component>;
  readonly catalog: Catalog;
}

interface Placement {
  readonly appConfig: string;
  readonly namespace: string;
  readonly owner: OwnerReference;
  readonly componentName: string;
  readonly revision: string;
  /** A trait's definition is revisionEnabled: each revision gets a workload of its own, named after the revision. */
  readonly revisionEnabled: boolean;
  /** The ApplicationConfiguration's own labels and annotations, passed to what it renders. */
  readonly passed: PassedMetadata;
}

function refOf(template: EmbeddedObject, name: string): TypedReference {
  return { apiVersion: template.apiVersion, kind: template.kind, name };
}

/**
 * The template with OAM identity: name, namespace, labels, owner; every other metadata field of the template is
 * dropped. Labels and annotations come from the ApplicationConfiguration, then the template (which wins), then OAM's
 * identity labels (which win over both), as oam-kubernetes-runtime passes them.
 */
function placed(template: EmbeddedObject, name: string, at: Placement, resourceType: ResourceTypeLabel): ApplyConfiguration {
  const { metadata, ...body } = template;
  const annotations = { ...at.passed.annotations, ...metadata?.annotations };
  return {
    ...body,
    metadata: {
      name,
      namespace: at.namespace,
      labels: { ...at.passed.labels, ...metadata?.labels, ...oamLabels(at.appConfig, at.componentName, at.revision, resourceType) },
      ...(Object.keys(annotations).length === 0 ? {} : { annotations }),
      ownerReferences: [at.owner],
    },
  };
}

function renderWorkload(component: Component, entry: ApplicationComponent, catalog: Catalog, at: Placement): RenderOutcome {
  const filled = fillParameters(component, entry.parameterValues ?? []);
  if (filled.kind === 'problem') return filled;
  const template = filled.workload;
  const ref = refOf(template, template.metadata?.name ?? (at.revisionEnabled ? at.revision : at.componentName));
  const resource = findResource(catalog, template.apiVersion, template.kind);
  if (resource === undefined) return problem('KindNotServed', `workload kind ${template.kind} (${template.apiVersion}) is not served by the apiserver`, ref);
  if (findWorkloadDefinition(catalog, resource) === undefined) {
    return problem('WorkloadDefinitionNotFound', `no WorkloadDefinition ${definitionName(resource)} registers workload kind ${template.kind}`, ref);
  }
  return { kind: 'rendered', ref, resource, object: placed(template, ref.name, at, RESOURCE_TYPE.workload) };
}

function renderTrait(template: EmbeddedObject, workload: RenderedObject, catalog: Catalog, at: Placement): RenderOutcome {
  const ref = refOf(template, template.metadata?.name ?? defaultTraitName(at.componentName, template.kind));
  const resource = findResource(catalog, template.apiVersion, template.kind);
  if (resource === undefined) return problem('KindNotServed', `trait kind ${template.kind} (${template.apiVersion}) is not served by the apiserver`, ref);
  const definition = findTraitDefinition(catalog, resource);
  if (definition === undefined) {
    return problem('TraitDefinitionNotFound', `no TraitDefinition ${definitionName(resource)} registers trait kind ${template.kind}`, ref);
  }
  if (!traitApplies(definition, workload.resource)) {
    const allowed = (definition.spec.appliesToWorkloads ?? []).join(', ');
    return problem('TraitNotApplicable', `trait ${template.kind} applies to ${allowed}, not to workload kind ${workload.ref.kind}`, ref);
  }
  const path = definition.spec.workloadRefPath;
  if (path === undefined || path === '') return { kind: 'rendered', ref, resource, object: placed(template, ref.name, at, RESOURCE_TYPE.trait) };
  const { apiVersion, kind, name } = workload.ref;
  try {
    const withRef = withField(template, path, { apiVersion, kind, name });
    return { kind: 'rendered', ref, resource, object: placed(withRef, ref.name, at, RESOURCE_TYPE.trait) };
  } catch (error) {
    if (error instanceof FieldPathError) return problem('InvalidTrait', `TraitDefinition ${definition.metadata.name}: workloadRefPath ${error.message}`, ref);
    throw error;
  }
}

/** Two entries rendering the same object would overwrite each other: the later one is reported instead. */
function deduplicated(outcome: RenderOutcome, seen: Set<string>): RenderOutcome {
  if (outcome.kind === 'problem') return outcome;
  const key = `${outcome.ref.apiVersion}/${outcome.ref.kind}/${outcome.ref.name}`;
  if (!seen.has(key)) {
    seen.add(key);
    return outcome;
  }
  return problem('DuplicateObject', `${outcome.ref.kind} ${outcome.ref.name} is rendered twice; give one of them another metadata.name`, outcome.ref);
}

type ChosenComponent =
  | { readonly kind: 'found'; readonly component: Component; readonly revision: string }
  | { readonly kind: 'missing'; readonly componentName: string; readonly message: string };

/**
 * The Component an entry renders: the revision it pins with revisionName, or else the named Component as it is now,
 * labelled with its current revision.
 */
function chosenComponent(input: RenderInput, entry: ApplicationComponent): ChosenComponent {
  if (entry.revisionName !== undefined) {
    const pinned = input.revisions.get(entry.revisionName);
    if (pinned !== undefined) return { kind: 'found', component: pinned, revision: entry.revisionName };
    return { kind: 'missing', componentName: entry.componentName ?? entry.revisionName, message: `Component revision ${entry.revisionName} is not in this namespace` };
  }
  const componentName = entry.componentName ?? '';
  const component = input.components.get(componentName);
  if (component === undefined) {
    const detail = entry.componentName === undefined ? 'is named by neither componentName nor revisionName' : 'is not in this namespace';
    return { kind: 'missing', componentName, message: `Component ${componentName} ${detail}` };
  }
  return { kind: 'found', component, revision: currentRevisionName(component) };
}

/** Whether a trait of the entry has a revisionEnabled TraitDefinition (v0.3.3's createRevision). */
function revisionEnabled(entry: ApplicationComponent, catalog: Catalog): boolean {
  return (entry.traits ?? []).some(({ trait }) => {
    const resource = findResource(catalog, trait.apiVersion, trait.kind);
    return resource !== undefined && findTraitDefinition(catalog, resource)?.spec.revisionEnabled === true;
  });
}

function renderComponent(input: RenderInput, entry: ApplicationComponent, owner: OwnerReference, seen: Set<string>): RenderedComponent {
  const chosen = chosenComponent(input, entry);
  const componentName = chosen.kind === 'found' ? chosen.component.metadata.name : chosen.componentName;
  if (chosen.kind === 'missing') {
    return { componentName, revision: undefined, revisionEnabled: false, workload: problem('ComponentNotFound', chosen.message), traits: [], scopes: [] };
  }
  const { component, revision } = chosen;
  const { name: appConfig, namespace = '' } = input.appConfig.metadata;
  const perRevision = revisionEnabled(entry, input.catalog);
  const at: Placement = { appConfig, namespace, owner, componentName, revision, revisionEnabled: perRevision, passed: passedMetadata(input.appConfig) };
  const workload = deduplicated(renderWorkload(component, entry, input.catalog, at), seen);
  if (workload.kind === 'problem') return { componentName, revision, revisionEnabled: perRevision, workload, traits: [], scopes: [] };
  const traits = (entry.traits ?? []).map(({ trait }) => deduplicated(renderTrait(trait, workload, input.catalog, at), seen));
  return { componentName, revision, revisionEnabled: perRevision, workload, traits, scopes: renderScopes(entry, input.catalog) };
}

export function renderApplication(input: RenderInput): RenderedComponent[] {
  const owner = controllerOwner(input.appConfig);
  const seen = new Set<string>();
  return input.appConfig.spec.components.map((entry) => renderComponent(input, entry, owner, seen));
}
