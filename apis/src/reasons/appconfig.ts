// The condition and Warning Event reasons of an ApplicationConfiguration (the appconfig controller).
import { reasonCatalog } from './entry.js';

const PROBLEM = ['Synced', 'Warning Event'] as const;

export const APPCONFIG_REASONS = reasonCatalog({
  ReconcileSuccess: {
    shownIn: ['Synced'],
    means: 'Every workload and trait of the ApplicationConfiguration is rendered and applied, and what left the spec is pruned.',
    todo: 'Nothing.',
  },
  InvalidSpec: {
    shownIn: PROBLEM,
    means: 'The ApplicationConfiguration does not validate; nothing is applied or pruned until it does.',
    todo: 'Fix the fields the message names.',
  },
  ComponentNotFound: {
    shownIn: PROBLEM,
    means: 'A component names a Component that does not exist in the namespace or does not validate, or pins with revisionName a Component revision (ControllerRevision) that does not exist.',
    todo: 'Create the Component, or fix componentName or revisionName (`kubectl get controllerrevisions -l controller.oam.dev/component=<name>` lists the revisions).',
  },
  DataOutputNotFound: {
    shownIn: PROBLEM,
    means: 'A component or trait takes a data input naming a data output no component or trait of the ApplicationConfiguration declares. The object taking it is not applied.',
    todo: 'Fix valueFrom.dataOutputName, or declare the output under dataOutputs of the object that emits it.',
  },
  InvalidParameter: {
    shownIn: PROBLEM,
    means: 'A parameter value does not fit the Component: unknown name, missing required value, or a field path it cannot set.',
    todo: 'Fix the parameterValues the message names, or the Component\'s parameters.',
  },
  KindNotServed: {
    shownIn: PROBLEM,
    means: 'The workload or trait kind is not served by the API server: its CRD is not installed.',
    todo: 'Install the CRD (for the ZooKeeper kinds: `kubectl apply --server-side -k deploy/crds`).',
  },
  WorkloadDefinitionNotFound: {
    shownIn: PROBLEM,
    means: 'No WorkloadDefinition registers the workload\'s kind.',
    todo: 'Apply the definitions (`kubectl apply --server-side -k deploy/oam`).',
  },
  TraitDefinitionNotFound: {
    shownIn: PROBLEM,
    means: 'No TraitDefinition registers the trait\'s kind.',
    todo: 'Apply the definitions (`kubectl apply --server-side -k deploy/oam`).',
  },
  TraitNotApplicable: {
    shownIn: PROBLEM,
    means: 'The TraitDefinition\'s appliesToWorkloads does not include the component\'s workload kind.',
    todo: 'Attach the trait to a component of a kind it applies to.',
  },
  InvalidTrait: {
    shownIn: PROBLEM,
    means: 'The trait cannot be rendered: its TraitDefinition\'s workloadRefPath is not a field path the trait can hold.',
    todo: 'Fix the TraitDefinition or the trait as the message says.',
  },
  DuplicateObject: {
    shownIn: PROBLEM,
    means: 'Two workloads or traits render to the same kind and name.',
    todo: 'Give one of them another metadata.name.',
  },
  ScopeDefinitionNotFound: {
    shownIn: PROBLEM,
    means: 'No ScopeDefinition registers the kind of a scope a component names, so where the scope lists its workloads is unknown. The workload and its traits are applied; the scope is not told of it.',
    todo: 'Apply a ScopeDefinition named after the scope kind\'s CRD (`<plural>.<group>`), with the workloadRefsPath the scope reads.',
  },
  ScopeNotFound: {
    shownIn: PROBLEM,
    means: 'A scope a component names does not exist in the namespace. The workload and its traits are applied; the scope is told once it exists.',
    todo: 'Create the scope, or fix scopeRef.',
  },
  InvalidScope: {
    shownIn: PROBLEM,
    means: 'The scope holds something other than a list at its ScopeDefinition\'s workloadRefsPath, so the workload cannot be added to it.',
    todo: 'Fix the scope object or the ScopeDefinition\'s workloadRefsPath as the message says.',
  },
  FieldConflict: {
    shownIn: PROBLEM,
    means: 'Another field manager owns a field the rendered object sets; the object is not forced.',
    todo: 'Remove the field from the other manager\'s configuration, or stop it managing the object.',
  },
  AlreadyControlled: {
    shownIn: PROBLEM,
    means: 'An object of the rendered name exists and another controller owns it; it is not taken over.',
    todo: 'Rename the rendered object, or delete the existing one if it is stale.',
  },
  Rejected: {
    shownIn: PROBLEM,
    means: 'The API server refused the rendered object (validation, admission, or a field its kind\'s schema does not declare, which server-side apply refuses where an update would drop it); the message quotes why.',
    todo: 'Fix the component or trait so that the rendered object validates.',
  },
  Forbidden: {
    shownIn: PROBLEM,
    means: 'The appconfig controller may not write that kind.',
    todo: 'Grant its ServiceAccount the verbs the message names (deploy/appconfig/cluster-role.yaml), or render only the kinds it may write.',
  },
  Discover: { shownIn: ['Synced', 'Warning Event'], means: 'Asking the API server which kinds it serves failed.', todo: 'Read the quoted error; usually transient.' },
  Apply: { shownIn: ['Synced', 'Warning Event'], means: 'Applying the rendered objects failed as a whole (not one object refused).', todo: 'Read the quoted error; usually transient.' },
  Prune: { shownIn: ['Synced', 'Warning Event'], means: 'Deleting an object that left the spec failed.', todo: 'Check the controller\'s RBAC for deleting that kind, and the quoted error.' },
  Finalize: {
    shownIn: ['Synced', 'Warning Event'],
    means: 'The ApplicationConfiguration is being deleted and removing its workloads from its scopes failed; its finalizer stays until that succeeds.',
    todo: 'Read the quoted error: usually the scope kind\'s ScopeDefinition is missing or the controller may not patch the scope.',
  },
  ReportStatus: { shownIn: ['Synced', 'Warning Event'], means: 'Writing the ApplicationConfiguration\'s status failed.', todo: 'Usually transient.' },
});
export type AppConfigReason = keyof typeof APPCONFIG_REASONS;
