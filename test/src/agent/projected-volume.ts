// A projected volume as kubelet writes it: ServiceAccount tokens (TokenRequest, bound to the pod), ConfigMap and Secret
// keys and downward API metadata, side by side in one directory. This is what the ServiceAccount admission plugin
// mounts at /var/run/secrets/kubernetes.io/serviceaccount in every pod (kube-api-access-*).
import type {
  V1DownwardAPIVolumeFile,
  V1KeyToPath,
  V1Pod,
  V1ProjectedVolumeSource,
  V1ServiceAccountTokenProjection,
  V1VolumeProjection,
} from '@kubernetes/client-node';
import { chmod, mkdir, rename, writeFile } from 'node:fs/promises';
import { dirname, join, normalize } from 'node:path';
import { keyedMetadataValue } from './pod-env.js';

/** What TokenRequest is asked for: kubelet's request for a `serviceAccountToken` projection. */
export interface TokenRequestSpec {
  readonly namespace: string;
  readonly serviceAccount: string;
  readonly pod: { readonly name: string; readonly uid: string };
  readonly audience: string | undefined;
  readonly expirationSeconds: number;
}

export interface IssuedToken {
  readonly token: string;
  readonly expiresAt: Date;
}

export interface ProjectionSources {
  configMap(namespace: string, name: string): Promise<Readonly<Record<string, Buffer>> | undefined>;
  secret(namespace: string, name: string): Promise<Readonly<Record<string, Buffer>> | undefined>;
  serviceAccountToken(request: TokenRequestSpec): Promise<IssuedToken>;
}

/** A token file the pod worker rewrites before it expires, as kubelet rotates projected tokens. */
export interface ProjectedTokenFile {
  readonly file: string;
  readonly mode: number;
  readonly request: TokenRequestSpec;
  readonly issued: IssuedToken;
}

export class ProjectionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ProjectionError';
  }
}

const defaultFileMode = 0o644;
/** Kubernetes' minimum, and what the admission plugin asks for by default is 3607. */
const defaultExpirationSeconds = 3600;

/** Writes every source of the volume into `directory`; returns the token files to keep fresh. */
export async function writeProjectedVolume(
  pod: V1Pod,
  source: V1ProjectedVolumeSource,
  directory: string,
  sources: ProjectionSources,
): Promise<ProjectedTokenFile[]> {
  await mkdir(directory, { recursive: true });
  const mode = source.defaultMode ?? defaultFileMode;
  const tokens: ProjectedTokenFile[] = [];
  for (const projection of source.sources ?? []) {
    const token = await writeProjection(pod, projection, directory, mode, sources);
    if (token !== undefined) tokens.push(token);
  }
  return tokens;
}

/** Asks for a fresh token and replaces the file atomically, so the container never reads half a token. */
export async function refreshTokenFile(file: ProjectedTokenFile, sources: ProjectionSources): Promise<ProjectedTokenFile> {
  const issued = await sources.serviceAccountToken(file.request);
  await writeAtomically(file.file, issued.token, file.mode);
  return { ...file, issued };
}

/** Kubelet renews at 80% of the token's lifetime. */
export function refreshDueAt(file: ProjectedTokenFile, now: Date): Date {
  const lifetimeMs = file.request.expirationSeconds * 1000;
  const issuedAt = file.issued.expiresAt.getTime() - lifetimeMs;
  return new Date(Math.max(now.getTime(), issuedAt + lifetimeMs * 0.8));
}

async function writeProjection(
  pod: V1Pod,
  projection: V1VolumeProjection,
  directory: string,
  mode: number,
  sources: ProjectionSources,
): Promise<ProjectedTokenFile | undefined> {
  const namespace = pod.metadata?.namespace ?? 'default';
  if (projection.serviceAccountToken !== undefined) {
    return writeToken(pod, projection.serviceAccountToken, directory, mode, sources);
  }
  if (projection.configMap !== undefined) {
    const { name = '', items, optional } = projection.configMap;
    await writeKeys(directory, await sources.configMap(namespace, name), items, optional, mode, `ConfigMap ${name}`);
  } else if (projection.secret !== undefined) {
    const { name = '', items, optional } = projection.secret;
    await writeKeys(directory, await sources.secret(namespace, name), items, optional, mode, `Secret ${name}`);
  } else if (projection.downwardAPI !== undefined) {
    await writeDownwardApi(pod, projection.downwardAPI.items ?? [], directory, mode);
  } else {
    throw new ProjectionError('a projection source other than serviceAccountToken, configMap, secret or downwardAPI');
  }
  return undefined;
}

async function writeToken(
  pod: V1Pod,
  projection: V1ServiceAccountTokenProjection,
  directory: string,
  mode: number,
  sources: ProjectionSources,
): Promise<ProjectedTokenFile> {
  const request: TokenRequestSpec = {
    namespace: pod.metadata?.namespace ?? 'default',
    serviceAccount: pod.spec?.serviceAccountName ?? 'default',
    pod: { name: pod.metadata?.name ?? '', uid: pod.metadata?.uid ?? '' },
    audience: projection.audience,
    expirationSeconds: projection.expirationSeconds ?? defaultExpirationSeconds,
  };
  const issued = await sources.serviceAccountToken(request);
  const file = inside(directory, projection.path);
  await writeAtomically(file, issued.token, mode);
  return { file, mode, request, issued };
}

async function writeDownwardApi(pod: V1Pod, items: readonly V1DownwardAPIVolumeFile[], directory: string, mode: number): Promise<void> {
  for (const item of items) {
    const fieldPath = item.fieldRef?.fieldPath;
    const value = fieldPath === undefined ? undefined : metadataValue(pod, fieldPath);
    if (value === undefined) throw new ProjectionError(`downward API item ${item.path}: only metadata fields are supported`);
    await writeAtomically(inside(directory, item.path), value, item.mode ?? mode);
  }
}

function metadataValue(pod: V1Pod, fieldPath: string): string | undefined {
  const keyed = keyedMetadataValue(pod, fieldPath);
  if (keyed !== undefined) return keyed;
  const fields: Record<string, string | undefined> = {
    'metadata.name': pod.metadata?.name,
    'metadata.namespace': pod.metadata?.namespace,
    'metadata.uid': pod.metadata?.uid,
  };
  return fields[fieldPath];
}

async function writeKeys(
  directory: string,
  data: Readonly<Record<string, Buffer>> | undefined,
  items: readonly V1KeyToPath[] | undefined,
  optional: boolean | undefined,
  mode: number,
  source: string,
): Promise<void> {
  if (data === undefined) {
    if (optional === true) return;
    throw new ProjectionError(`${source} not found`);
  }
  for (const item of items ?? Object.keys(data).map((key) => ({ key, path: key, mode: undefined }))) {
    const content = data[item.key];
    if (content === undefined) throw new ProjectionError(`${source} has no key ${item.key}`);
    await writeAtomically(inside(directory, item.path), content, item.mode ?? mode);
  }
}

function inside(directory: string, path: string): string {
  const target = normalize(join(directory, path));
  if (!target.startsWith(`${directory}/`)) throw new ProjectionError(`item path ${path} leaves the volume`);
  return target;
}

async function writeAtomically(file: string, content: string | Buffer, mode: number): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  const staging = `${file}.${String(process.pid)}.tmp`;
  await writeFile(staging, content);
  await chmod(staging, mode);
  await rename(staging, file);
}
