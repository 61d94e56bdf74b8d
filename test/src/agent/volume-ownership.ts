// kubelet's fsGroup on a pod's writable volumes (emptyDir, and claims whose driver supports it): every file and
// directory gets the group, is group-readable and -writable, and directories are setgid, so that what the container
// creates there keeps the group. A volume whose root already has the group and setgid is left as it is (kubelet's
// OnRootMismatch), which spares a reused volume the walk on every start.
import { chmod, chown, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';

const groupReadWrite = 0o660;
const groupSearch = 0o110;
const setgid = 0o2000;

export async function applyFsGroup(directory: string, fsGroup: number): Promise<void> {
  const root = await stat(directory);
  if (root.gid === fsGroup && (root.mode & setgid) !== 0) return;
  const entries = await readdir(directory, { recursive: true, withFileTypes: true });
  const paths = [{ path: directory, isDirectory: true }, ...entries.map((entry) => ({ path: join(entry.parentPath, entry.name), isDirectory: entry.isDirectory() }))];
  for (const { path, isDirectory } of paths) {
    const { uid, mode } = await stat(path);
    await chown(path, uid, fsGroup);
    await chmod(path, (mode & 0o7777) | groupReadWrite | (isDirectory ? groupSearch | setgid : 0));
  }
}
