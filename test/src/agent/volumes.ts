// Materialises a pod's volumes as host directories, which the container runtime bind-mounts at their mount paths.
import type { V1KeyToPath, V1Pod, V1Volume } from '@kubernetes/client-node';
import { chmod, mkdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join, normalize } from 'node:path';
import { applyFsGroup } from './volume-ownership.js';
import { writeProjectedVolume, type ProjectedTokenFile, type ProjectionSources } from './projected-volume.js';

/** Reads what volumes point at (undefined: the object does not exist) and issues ServiceAccount tokens. */
export interface VolumeSourceReader extends ProjectionSources {
  /** The host directory of the PV bound to the claim; throws while the claim is unbound. */
  claimDirectory(namespace: string, claimName: string): Promise<string>;
}

export class VolumeError extends Error {
  constructor(
    readonly volume: string,
    message: string,
  ) {
    super(`volume ${volume}: ${message}`);
    this.name = 'VolumeError';
  }
}

const defaultFileMode = 0o644;

export interface MaterialisedVolumes {
  /** Volume name -> host directory. */
  readonly directories: Map<string, string>;
  /** The projected ServiceAccount tokens, to be renewed before they expire. */
  readonly tokens: ProjectedTokenFile[];
}

/**
 * Creates every volume of the pod under `volumesDir`, replacing what an earlier pod left; with an fsGroup, every volume
 * gets its group as kubelet gives it (volume-ownership.ts): read-write on emptyDir and claims, read-only on the rest.
 */
export async function materialiseVolumes(pod: V1Pod, volumesDir: string, reader: VolumeSourceReader): Promise<MaterialisedVolumes> {
  const namespace = pod.metadata?.namespace ?? 'default';
  const fsGroup = pod.spec?.securityContext?.fsGroup;
  await rm(volumesDir, { recursive: true, force: true });
  await mkdir(volumesDir, { recursive: true });
  const directories = new Map<string, string>();
  const tokens: ProjectedTokenFile[] = [];
  for (const volume of pod.spec?.volumes ?? []) {
    const directory = join(volumesDir, volume.name);
    if (volume.projected !== undefined) {
      tokens.push(...(await writeProjectedVolume(pod, volume.projected, directory, reader).catch(rethrowFor(volume.name))));
      if (fsGroup !== undefined) await applyFsGroup(directory, fsGroup, 'readOnly');
      directories.set(volume.name, directory);
      continue;
    }
    const materialised = await materialiseVolume(volume, namespace, directory, reader);
    if (materialised !== undefined) {
      const writable = volume.emptyDir !== undefined || volume.persistentVolumeClaim !== undefined;
      if (fsGroup !== undefined) await applyFsGroup(materialised, fsGroup, writable ? 'readWrite' : 'readOnly');
      directories.set(volume.name, materialised);
    }
  }
  return { directories, tokens };
}

function rethrowFor(volumeName: string): (error: unknown) => never {
  return (error) => {
    throw new VolumeError(volumeName, error instanceof Error ? error.message : String(error));
  };
}

async function materialiseVolume(volume: V1Volume, namespace: string, directory: string, reader: VolumeSourceReader): Promise<string | undefined> {
  if (volume.configMap !== undefined) {
    const { name = '', items, defaultMode, optional } = volume.configMap;
    const data = await reader.configMap(namespace, name);
    return writeKeyedFiles(volume.name, directory, data, items, defaultMode, optional, `ConfigMap ${name}`);
  }
  if (volume.secret !== undefined) {
    const { secretName = '', items, defaultMode, optional } = volume.secret;
    const data = await reader.secret(namespace, secretName);
    return writeKeyedFiles(volume.name, directory, data, items, defaultMode, optional, `Secret ${secretName}`);
  }
  if (volume.emptyDir !== undefined) {
    // World-writable, as kubelet makes an emptyDir: any user of the container may write it.
    await mkdir(directory, { recursive: true });
    await chmod(directory, 0o777);
    return directory;
  }
  if (volume.persistentVolumeClaim !== undefined) {
    return reader.claimDirectory(namespace, volume.persistentVolumeClaim.claimName);
  }
  // A downwardAPI volume (outside a projection) is not provided: no pod of ours uses one.
  return undefined;
}

async function writeKeyedFiles(
  volumeName: string,
  directory: string,
  data: Readonly<Record<string, Buffer>> | undefined,
  items: readonly V1KeyToPath[] | undefined,
  defaultMode: number | undefined,
  optional: boolean | undefined,
  source: string,
): Promise<string> {
  await mkdir(directory, { recursive: true });
  if (data === undefined) {
    if (optional === true) {
      return directory;
    }
    throw new VolumeError(volumeName, `${source} not found`);
  }
  const files = items ?? Object.keys(data).map((key) => ({ key, path: key, mode: undefined }));
  for (const item of files) {
    const content = data[item.key];
    if (content === undefined) {
      throw new VolumeError(volumeName, `${source} has no key ${item.key}`);
    }
    const target = normalize(join(directory, item.path));
    if (!target.startsWith(`${directory}/`)) {
      throw new VolumeError(volumeName, `item path ${item.path} leaves the volume`);
    }
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, content);
    await chmod(target, item.mode ?? defaultMode ?? defaultFileMode);
  }
  return directory;
}
