// kubeObjectSchema's check made by hand, for the informers that read every object as a plain KubeObject: each watch
// event was a zod parse of its metadata, which copies every field it reads (4% of the workload controller's CPU in a
// burst of 100 new ensembles, by a profile). The check only accepts; an object it refuses is parsed by the schema,
// which has the last word and names what is wrong.
import { z } from 'zod';
import { isRecord } from './json-record.js';
import { kubeObjectSchema, type KubeObject } from './object.js';

const OPTIONAL_STRINGS = ['namespace', 'uid', 'resourceVersion', 'creationTimestamp', 'deletionTimestamp'] as const;

function isOptional(value: unknown, check: (present: unknown) => boolean): boolean {
  return value === undefined || check(value);
}

function isString(value: unknown): boolean {
  return typeof value === 'string';
}

function isBoolean(value: unknown): boolean {
  return typeof value === 'boolean';
}

function isStringRecord(value: unknown): boolean {
  if (!isRecord(value)) return false;
  for (const key in value) if (typeof value[key] !== 'string') return false;
  return true;
}

function isArrayOf(value: unknown, check: (item: unknown) => boolean): boolean {
  return Array.isArray(value) && value.every(check);
}

function isOwnerReference(value: unknown): boolean {
  return (
    isRecord(value) &&
    isString(value['apiVersion']) &&
    isString(value['kind']) &&
    isString(value['name']) &&
    isString(value['uid']) &&
    isOptional(value['controller'], isBoolean) &&
    isOptional(value['blockOwnerDeletion'], isBoolean)
  );
}

function isObjectMeta(value: unknown): boolean {
  return (
    isRecord(value) &&
    isString(value['name']) &&
    OPTIONAL_STRINGS.every((field) => isOptional(value[field], isString)) &&
    isOptional(value['generation'], Number.isSafeInteger) &&
    isOptional(value['labels'], isStringRecord) &&
    isOptional(value['annotations'], isStringRecord) &&
    isOptional(value['ownerReferences'], (references) => isArrayOf(references, isOwnerReference)) &&
    isOptional(value['finalizers'], (finalizers) => isArrayOf(finalizers, isString))
  );
}

/** Whether kubeObjectSchema accepts the value as it is (it has no defaults nor transforms, so its output is the value). */
export function isKubeObject(value: unknown): value is KubeObject {
  return isRecord(value) && isOptional(value['apiVersion'], isString) && isOptional(value['kind'], isString) && isObjectMeta(value['metadata']);
}

/** kubeObjectSchema, its accepting path checked by hand. */
export const checkedKubeObjectSchema: z.ZodType<KubeObject> = z.union([z.custom<KubeObject>(isKubeObject), kubeObjectSchema]);
