// Materialises a pod's volumes as host directories and maps the container's mount paths onto them.
import type { V1Container, V1KeyToPath, V1Pod, V1Volume } from '@kubernetes/client-node';
import { chmod, mkdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join, normalize } from 'node:path';
import type { PathMapping } from './path-mapping.js';

/** Reads what volumes point at; undefined means the object does not exist. */
export interface VolumeSourceReader {
  configMap(namespace: string, name: string): Promise<Readonly<Record<string, Buffer>> | undefined>;
  secret(namespace: string, name: string): Promise<Readonly<Record<string, Buffer>> | undefined>;
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

/** Creates every volume of the pod under `volumesDir` (replacing what an earlier pod left) and returns name -> host dir. */
export async function materialiseVolumes(pod: V1Pod, volumesDir: string, reader: VolumeSourceReader): Promise<Map<string, string>> {
  const namespace = pod.metadata?.namespace ?? 'default';
  await rm(volumesDir, { recursive: true, force: true });
  await mkdir(volumesDir, { recursive: true });
  const directories = new Map<string, string>();
  for (const volume of pod.spec?.volumes ?? []) {
    const directory = await materialiseVolume(volume, namespace, join(volumesDir, volume.name), reader);
    if (directory !== undefined) {
      directories.set(volume.name, directory);
    }
  }
  return directories;
}

/** mountPath -> host path for each volumeMount of the container whose volume was materialised. */
export function containerPathMappings(container: V1Container, volumeDirectories: ReadonlyMap<string, string>): PathMapping[] {
  const mappings: PathMapping[] = [];
  for (const mount of container.volumeMounts ?? []) {
    const directory = volumeDirectories.get(mount.name);
    if (directory !== undefined) {
      mappings.push({ mountPath: mount.mountPath, hostPath: mount.subPath ? join(directory, mount.subPath) : directory });
    }
  }
  return mappings;
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
    await mkdir(directory, { recursive: true });
    return directory;
  }
  if (volume.persistentVolumeClaim !== undefined) {
    return reader.claimDirectory(namespace, volume.persistentVolumeClaim.claimName);
  }
  // Projected service-account tokens and the downward API volume are not provided: ZooKeeper pods do not use them.
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
