// Data dependencies between what one ApplicationConfiguration renders, as oam-kubernetes-runtime v0.3.3 has them: a
// component or trait declares dataOutputs (a field of its object, with conditions), another takes dataInputs naming
// an output and writes its value at toFieldPaths. An object whose input is not ready is held back (not applied) and
// listed in status.dependency.unsatisfied; its traits are applied, as v0.3.3 applies them. Pure: the live source
// objects are read by the caller (sourcesToRead says which).
import type { ApplicationComponent, ApplicationConfiguration } from '@zk-oam/apis';
import { problem, type RenderedComponent, type RenderedObject, type RenderOutcome } from '../render/outcome.js';
import { refKey } from '../reconcile/refs.js';
import { dataValue, filled, type DataCondition } from './data-value.js';

type DataInput = NonNullable<ApplicationComponent['dataInputs']>[number];
type DataOutput = NonNullable<ApplicationComponent['dataOutputs']>[number];

export type UnsatisfiedDependency = NonNullable<NonNullable<NonNullable<ApplicationConfiguration['status']>['dependency']>['unsatisfied']>[number];

interface DataSource {
  readonly object: RenderedObject;
  readonly fieldPath: string;
  readonly conditions: readonly DataCondition[];
}

export interface ResolvedDependencies {
  readonly rendered: RenderedComponent[];
  /** refKeys of the objects held back until their inputs are ready. */
  readonly held: ReadonlySet<string>;
  readonly unsatisfied: UnsatisfiedDependency[];
}

/** Each rendered object with its entry's data outputs and inputs (the workload's, then each trait's). */
function declared(appConfig: ApplicationConfiguration, rendered: readonly RenderedComponent[]): { outcome: RenderOutcome; outputs: DataOutput[]; inputs: DataInput[] }[] {
  return rendered.flatMap((component, index) => {
    const entry = appConfig.spec.components[index];
    if (entry === undefined) return [];
    return [
      { outcome: component.workload, outputs: entry.dataOutputs ?? [], inputs: entry.dataInputs ?? [] },
      ...component.traits.map((outcome, trait) => ({
        outcome,
        outputs: entry.traits?.[trait]?.dataOutputs ?? [],
        inputs: entry.traits?.[trait]?.dataInputs ?? [],
      })),
    ];
  });
}

function sourcesOf(appConfig: ApplicationConfiguration, rendered: readonly RenderedComponent[]): Map<string, DataSource> {
  const sources = new Map<string, DataSource>();
  for (const { outcome, outputs } of declared(appConfig, rendered)) {
    if (outcome.kind !== 'rendered') continue;
    for (const output of outputs) {
      if (output.name !== undefined) sources.set(output.name, { object: outcome, fieldPath: output.fieldPath ?? '', conditions: output.conditions ?? [] });
    }
  }
  return sources;
}

/** The rendered objects some data input reads: their live state decides whether the input is ready. */
export function sourcesToRead(appConfig: ApplicationConfiguration, rendered: readonly RenderedComponent[]): RenderedObject[] {
  const sources = sourcesOf(appConfig, rendered);
  const read = declared(appConfig, rendered).flatMap(({ inputs }) => inputs.flatMap((input) => sources.get(input.valueFrom?.dataOutputName ?? '')?.object ?? []));
  return [...new Map(read.map((object) => [refKey(object.ref), object] as const)).values()];
}

type InputOutcome = { readonly outcome: RenderOutcome; readonly unsatisfied?: UnsatisfiedDependency };

/** Fills the object's inputs in order; the first one not ready holds it back, as in v0.3.3. */
function withInputs(
  object: RenderedObject,
  inputs: readonly DataInput[],
  sources: ReadonlyMap<string, DataSource>,
  declaredNames: ReadonlySet<string>,
  live: ReadonlyMap<string, unknown>,
  appConfig: ApplicationConfiguration,
): InputOutcome {
  let current = object;
  for (const input of inputs) {
    const name = input.valueFrom?.dataOutputName ?? '';
    const source = sources.get(name);
    if (source === undefined) {
      const why = declaredNames.has(name) ? 'whose object is not rendered' : 'which no component or trait of this ApplicationConfiguration declares';
      return { outcome: problem('DataOutputNotFound', `${object.ref.kind} ${object.ref.name} takes data output ${JSON.stringify(name)}, ${why}`, object.ref) };
    }
    const paths = input.toFieldPaths ?? [];
    const value = dataValue(source, live.get(refKey(source.object.ref)), `${appConfig.metadata.namespace ?? ''}/${source.object.ref.name}`, appConfig);
    if (!value.ready) {
      const unsatisfied = { reason: value.reason, from: { ...source.object.ref, fieldPath: source.fieldPath }, to: { ...object.ref, fieldPaths: paths } };
      return { outcome: current, unsatisfied };
    }
    current = { ...current, object: filled(current.object, paths, value.value) };
  }
  return { outcome: current };
}

export function resolveDependencies(appConfig: ApplicationConfiguration, rendered: readonly RenderedComponent[], live: ReadonlyMap<string, unknown>): ResolvedDependencies {
  const sources = sourcesOf(appConfig, rendered);
  const declaredNames = new Set(declared(appConfig, rendered).flatMap(({ outputs }) => outputs.flatMap((output) => output.name ?? [])));
  const held = new Set<string>();
  const unsatisfied: UnsatisfiedDependency[] = [];
  const resolve = (outcome: RenderOutcome, inputs: readonly DataInput[]): RenderOutcome => {
    if (outcome.kind !== 'rendered' || inputs.length === 0) return outcome;
    const result = withInputs(outcome, inputs, sources, declaredNames, live, appConfig);
    if (result.unsatisfied !== undefined) {
      held.add(refKey(outcome.ref));
      unsatisfied.push(result.unsatisfied);
    }
    return result.outcome;
  };
  const resolved = rendered.map((component, index) => {
    const entry = appConfig.spec.components[index];
    return {
      ...component,
      workload: resolve(component.workload, entry?.dataInputs ?? []),
      traits: component.traits.map((trait, position) => resolve(trait, entry?.traits?.[position]?.dataInputs ?? [])),
    };
  });
  return { rendered: resolved, held, unsatisfied };
}
