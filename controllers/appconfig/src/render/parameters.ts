// Fills a Component's declared parameters from an ApplicationConfiguration's parameterValues into the workload
// template; pure. An undeclared value, a missing required one or an unusable field path is an InvalidParameter.
import type { Component, EmbeddedObject } from '@zk-oam/apis';
import { FieldPathError, withField } from './field-path.js';
import { problem, type RenderProblem } from './outcome.js';

export interface ParameterValue {
  readonly name: string;
  readonly value: string | number;
}

export type FilledWorkload = { readonly kind: 'filled'; readonly workload: EmbeddedObject } | RenderProblem;

function invalid(component: Component, detail: string): RenderProblem {
  return problem('InvalidParameter', `Component ${component.metadata.name}: ${detail}`);
}

export function fillParameters(component: Component, values: readonly ParameterValue[]): FilledWorkload {
  const declared = component.spec.parameters ?? [];
  const known = new Set(declared.map((parameter) => parameter.name));
  const unknown = values.filter((value) => !known.has(value.name)).map((value) => value.name);
  if (unknown.length > 0) {
    const names = declared.length === 0 ? 'none' : [...known].join(', ');
    return invalid(component, `parameter(s) ${unknown.join(', ')} not declared (declared: ${names})`);
  }
  const given = new Map(values.map((value) => [value.name, value.value] as const));
  const missing = declared.filter((parameter) => parameter.required === true && !given.has(parameter.name)).map((parameter) => parameter.name);
  if (missing.length > 0) return invalid(component, `required parameter(s) ${missing.join(', ')} have no value`);
  let workload = component.spec.workload;
  try {
    for (const parameter of declared) {
      const value = given.get(parameter.name);
      if (value === undefined) continue;
      for (const path of parameter.fieldPaths) workload = withField(workload, path, value);
    }
  } catch (error) {
    if (error instanceof FieldPathError) return invalid(component, error.message);
    throw error;
  }
  return { kind: 'filled', workload };
}
