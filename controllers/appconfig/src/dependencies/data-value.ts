// Whether a data output is ready and what it emits, as oam-kubernetes-runtime v0.3.3 decides it: the source object's
// value at the output's fieldPath, checked against the output's conditions (a string with none must not be empty).
// Pure: the live source object and the ApplicationConfiguration are passed in.
import type { z } from 'zod';
import type { dataConditionSchema } from '@zk-oam/apis';
import { FieldPathError, readField, withField } from '../render/field-path.js';

export type DataCondition = z.infer<typeof dataConditionSchema>;

export type DataValue = { readonly ready: true; readonly value: unknown } | { readonly ready: false; readonly reason: string };

/** A string at `path`, or why there is none (v0.3.3 reads condition values as strings only). */
function stringAt(object: unknown, path: string): { value: string } | { error: string } {
  try {
    const value = readField(object, path);
    return typeof value === 'string' ? { value } : { error: `${path} is ${value === undefined ? 'not set' : `not a string (${typeof value})`}` };
  } catch (error) {
    if (error instanceof FieldPathError) return { error: error.message };
    throw error;
  }
}

/** What a condition checks: its own field of the source, else the emitted string. */
function checkedValue(condition: DataCondition, source: unknown, value: string | undefined): { value: string } | { error: string } {
  if (condition.fieldPath !== undefined && condition.fieldPath !== '') return stringAt(source, condition.fieldPath);
  return value === undefined ? { error: 'FieldPath not specified' } : { value };
}

/** What a condition expects: its value, else a field of the ApplicationConfiguration, else the empty string. */
function expectedValue(condition: DataCondition, appConfig: unknown): { value: string } | { error: string } {
  if (condition.value !== undefined && condition.value !== '') return { value: condition.value };
  if (condition.valueFrom === undefined || condition.valueFrom.fieldPath === '') return { value: '' };
  const from = stringAt(appConfig, condition.valueFrom.fieldPath);
  return 'error' in from ? { error: `get valueFrom.fieldPath fail: ${from.error}` } : from;
}

function unmet(condition: DataCondition, source: unknown, value: string | undefined, appConfig: unknown): string | undefined {
  const checked = checkedValue(condition, source, value);
  if ('error' in checked) return `can't get value to check ${checked.error}`;
  const expected = expectedValue(condition, appConfig);
  if ('error' in expected) return expected.error;
  switch (condition.op) {
    case 'eq':
      return checked.value === expected.value ? undefined : `got(${checked.value}) expected to be ${expected.value}`;
    case 'notEq':
      return checked.value !== expected.value ? undefined : `got(${checked.value}) expected not to be ${expected.value}`;
    case 'notEmpty':
      return checked.value !== '' ? undefined : 'value should not be empty';
  }
}

/** `source` is the live object (undefined when it does not exist yet), named `sourceName` in reasons. */
export function dataValue(output: { fieldPath: string; conditions: readonly DataCondition[] }, source: unknown, sourceName: string, appConfig: unknown): DataValue {
  if (source === undefined) return { ready: false, reason: `failed to get object (${sourceName})` };
  let value: unknown;
  try {
    value = readField(source, output.fieldPath);
  } catch (error) {
    if (error instanceof FieldPathError) return { ready: false, reason: error.message };
    throw error;
  }
  if (value === undefined) return { ready: false, reason: `${output.fieldPath} not found in object` };
  if (typeof value === 'string' && output.conditions.length === 0) {
    return value === '' ? { ready: false, reason: 'value should not be empty' } : { ready: true, value };
  }
  for (const condition of output.conditions) {
    const reason = unmet(condition, source, typeof value === 'string' ? value : undefined, appConfig);
    if (reason !== undefined) return { ready: false, reason };
  }
  return { ready: true, value };
}

/** The object with the value written at each path; a list is appended to the list already there, as v0.3.3 does. */
export function filled<T extends Record<string, unknown>>(object: T, paths: readonly string[], value: unknown): T {
  return paths.reduce((current, path) => {
    if (!Array.isArray(value)) return withField(current, path, value);
    const existing = readField(current, path);
    return withField(current, path, [...(Array.isArray(existing) ? existing : []), ...value]);
  }, object);
}
