// A container's environment as kubelet computes it: env, envFrom, fieldRef, resourceFieldRef, $(VAR) expansion.
import type { V1Container, V1EnvVar, V1Pod, V1ResourceFieldSelector } from '@kubernetes/client-node';
import { divideQuantity } from './quantity.js';

/** ConfigMap and Secret contents the container refers to, Secret values already decoded. */
export interface EnvSources {
  configMaps: ReadonlyMap<string, Readonly<Record<string, string>>>;
  secrets: ReadonlyMap<string, Readonly<Record<string, string>>>;
}

export interface PodRuntimeFacts {
  podIP: string;
  hostIP: string;
  /** Used for resourceFieldRef when the container sets no limit, as kubelet does. */
  nodeAllocatable: Readonly<Record<string, string>>;
}

export class EnvResolutionError extends Error {
  constructor(
    readonly variable: string,
    message: string,
  ) {
    super(`env ${variable}: ${message}`);
    this.name = 'EnvResolutionError';
  }
}

/** Names of the ConfigMaps and Secrets a container's env and envFrom read. */
export function envReferences(container: V1Container): { configMaps: Set<string>; secrets: Set<string> } {
  const configMaps = new Set<string>();
  const secrets = new Set<string>();
  for (const variable of container.env ?? []) {
    const configMapName = variable.valueFrom?.configMapKeyRef?.name;
    const secretName = variable.valueFrom?.secretKeyRef?.name;
    if (configMapName !== undefined) configMaps.add(configMapName);
    if (secretName !== undefined) secrets.add(secretName);
  }
  for (const source of container.envFrom ?? []) {
    if (source.configMapRef?.name !== undefined) configMaps.add(source.configMapRef.name);
    if (source.secretRef?.name !== undefined) secrets.add(source.secretRef.name);
  }
  return { configMaps, secrets };
}

export function resolveEnv(pod: V1Pod, container: V1Container, sources: EnvSources, facts: PodRuntimeFacts): Record<string, string> {
  const env: Record<string, string> = {};
  for (const source of container.envFrom ?? []) {
    const prefix = source.prefix ?? '';
    const fromConfigMap = source.configMapRef === undefined ? undefined : lookup(sources.configMaps, source.configMapRef.name, source.configMapRef.optional);
    const fromSecret = source.secretRef === undefined ? undefined : lookup(sources.secrets, source.secretRef.name, source.secretRef.optional);
    for (const [key, value] of Object.entries({ ...fromConfigMap, ...fromSecret })) {
      env[prefix + key] = value;
    }
  }
  for (const variable of container.env ?? []) {
    const value = resolveVariable(pod, container, variable, sources, facts, env);
    if (value !== undefined) {
      env[variable.name] = value;
    }
  }
  return env;
}

/** Kubelet's $(VAR) expansion: known variables are replaced, $$ escapes, unknown references stay as written. */
export function expandReferences(text: string, env: Readonly<Record<string, string>>): string {
  return text.replace(/\$\$|\$\(([A-Za-z_][A-Za-z0-9_.-]*)\)/g, (match: string, name: string | undefined) => {
    if (name === undefined) {
      return '$';
    }
    return env[name] ?? match;
  });
}

function resolveVariable(
  pod: V1Pod,
  container: V1Container,
  variable: V1EnvVar,
  sources: EnvSources,
  facts: PodRuntimeFacts,
  defined: Readonly<Record<string, string>>,
): string | undefined {
  const from = variable.valueFrom;
  if (from === undefined) {
    return expandReferences(variable.value ?? '', defined);
  }
  if (from.fieldRef !== undefined) {
    return fieldValue(pod, from.fieldRef.fieldPath, facts, variable.name);
  }
  if (from.resourceFieldRef !== undefined) {
    return resourceValue(container, from.resourceFieldRef, facts, variable.name);
  }
  if (from.configMapKeyRef !== undefined) {
    const { name, key, optional } = from.configMapKeyRef;
    return keyValue(lookup(sources.configMaps, name, optional), key, optional, variable.name, `ConfigMap ${name}`);
  }
  if (from.secretKeyRef !== undefined) {
    const { name, key, optional } = from.secretKeyRef;
    return keyValue(lookup(sources.secrets, name, optional), key, optional, variable.name, `Secret ${name}`);
  }
  throw new EnvResolutionError(variable.name, 'unsupported valueFrom');
}

/** A container's limit or request; with no limit set, kubelet falls back to what the node can allocate. */
function resourceValue(container: V1Container, ref: V1ResourceFieldSelector, facts: PodRuntimeFacts, variable: string): string {
  const [kind, name = ''] = ref.resource.split('.');
  const quantity =
    (kind === 'limits' ? container.resources?.limits?.[name] : container.resources?.requests?.[name]) ??
    (kind === 'limits' ? facts.nodeAllocatable[name] : kind === 'requests' ? '0' : undefined);
  if (quantity === undefined) {
    throw new EnvResolutionError(variable, `unsupported resource ${ref.resource}`);
  }
  return divideQuantity(quantity, ref.divisor);
}

/** The pod fields a fieldRef may name (besides labels and annotations), read from the pod or from the agent's facts. */
const POD_FIELDS = new Map<string, (pod: V1Pod, facts: PodRuntimeFacts) => string | undefined>([
  ['metadata.name', (pod) => pod.metadata?.name],
  ['metadata.namespace', (pod) => pod.metadata?.namespace],
  ['metadata.uid', (pod) => pod.metadata?.uid],
  ['spec.nodeName', (pod) => pod.spec?.nodeName],
  ['spec.serviceAccountName', (pod) => pod.spec?.serviceAccountName],
  ['status.podIP', (_pod, facts) => facts.podIP],
  ['status.podIPs', (_pod, facts) => facts.podIP],
  ['status.hostIP', (_pod, facts) => facts.hostIP],
  ['status.hostIPs', (_pod, facts) => facts.hostIP],
]);

/** A label or annotation by key (`metadata.labels['x']`), empty when absent; undefined when the path names neither. */
export function keyedMetadataValue(pod: V1Pod, fieldPath: string): string | undefined {
  const keyed = /^metadata\.(labels|annotations)\['(.+)'\]$/.exec(fieldPath);
  if (keyed === null) return undefined;
  const map = keyed[1] === 'labels' ? pod.metadata?.labels : pod.metadata?.annotations;
  return map?.[keyed[2] ?? ''] ?? '';
}

function fieldValue(pod: V1Pod, fieldPath: string, facts: PodRuntimeFacts, variable: string): string {
  const keyed = keyedMetadataValue(pod, fieldPath);
  if (keyed !== undefined) return keyed;
  const read = POD_FIELDS.get(fieldPath);
  if (read === undefined) {
    throw new EnvResolutionError(variable, `unsupported fieldRef ${fieldPath}`);
  }
  return read(pod, facts) ?? '';
}

function lookup(
  objects: ReadonlyMap<string, Readonly<Record<string, string>>>,
  name: string | undefined,
  optional: boolean | undefined,
): Readonly<Record<string, string>> | undefined {
  const found = objects.get(name ?? '');
  if (found === undefined && optional !== true) {
    throw new EnvResolutionError(name ?? '', `referenced object ${name ?? '(unnamed)'} not found`);
  }
  return found;
}

function keyValue(
  data: Readonly<Record<string, string>> | undefined,
  key: string,
  optional: boolean | undefined,
  variable: string,
  where: string,
): string | undefined {
  const value = data?.[key];
  if (value === undefined && optional !== true) {
    throw new EnvResolutionError(variable, `key ${key} not found in ${where}`);
  }
  return value;
}
