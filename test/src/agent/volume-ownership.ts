// kubelet's fsGroup on a pod's volumes (SetVolumeOwnership): every file and directory gets the group, directories are
// setgid (what the container creates there keeps the group), and the group may read, and write too on a writable volume
// (emptyDir, claims whose driver supports it), read only on one the kubelet writes itself (Secret, ConfigMap, projected):
// a Secret's key at defaultMode 0400 becomes 0440, readable by a non-root container in the group. A writable volume
// whose root already has the group and setgid is left as it is (kubelet's OnRootMismatch), which spares a reused volume
// the walk on every start; the others are written afresh for each pod.
import { chmod, chown, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';

const readWrite = 0o660;
const readOnly = 0o440;
const search = 0o110;
const setgid = 0o2000;

export type VolumeAccess = 'readWrite' | 'readOnly';

export async function applyFsGroup(directory: string, fsGroup: number, access: VolumeAccess): Promise<void> {
  const root = await stat(directory);
  if (access === 'readWrite' && root.gid === fsGroup && (root.mode & setgid) !== 0) return;
  const mask = access === 'readWrite' ? readWrite : readOnly;
  const entries = await readdir(directory, { recursive: true, withFileTypes: true });
  const paths = [{ path: directory, isDirectory: true }, ...entries.map((entry) => ({ path: join(entry.parentPath, entry.name), isDirectory: entry.isDirectory() }))];
  for (const { path, isDirectory } of paths) {
    const { uid, mode } = await stat(path);
    await chown(path, uid, fsGroup);
    await chmod(path, (mode & 0o7777) | mask | (isDirectory ? search | setgid : 0));
  }
}
