// A directory as an object store: a key is a file's path under the directory. What the volume server (volume/) keeps a
// PersistentVolumeClaim target's backups in. A put is written beside its file and renamed over it, so that a reader
// never sees half an object; deleting a backup's last file removes its directories.
import { mkdir, readdir, readFile, rename, rm, rmdir, writeFile } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import { ObjectStoreError, type ObjectStore } from './object-store.js';

/** A key as the stores take one: path segments of letters, digits, ".", "_" and "-", never "." or "..". */
const KEY_PATTERN = /^(?!.*(^|\/)\.\.?(\/|$))[A-Za-z0-9._-]+(\/[A-Za-z0-9._-]+)*$/;

function isMissing(error: unknown): boolean {
  return error instanceof Error && 'code' in error && error.code === 'ENOENT';
}

export class DirectoryStore implements ObjectStore {
  constructor(
    private readonly root: string,
    /** Where the directory is, for people: pvc://<claim>/. */
    private readonly locationPrefix: string,
  ) {}

  location(key: string): string {
    return `${this.locationPrefix}${key}`;
  }

  async put(key: string, body: Buffer): Promise<void> {
    const path = this.pathOf('put', key);
    await this.attempt('put', key, async () => {
      await mkdir(dirname(path), { recursive: true });
      await writeFile(`${path}.partial`, body);
      await rename(`${path}.partial`, path);
    });
  }

  async get(key: string): Promise<Buffer | undefined> {
    const path = this.pathOf('get', key);
    return this.attempt('get', key, () => readFile(path).catch((error: unknown) => (isMissing(error) ? undefined : Promise.reject(error))));
  }

  async list(prefix: string): Promise<string[]> {
    const files = await this.attempt('list', prefix, () => readdir(this.root, { recursive: true, withFileTypes: true }));
    return files
      .filter((entry) => entry.isFile() && !entry.name.endsWith('.partial'))
      .map((entry) => relative(this.root, join(entry.parentPath, entry.name)).split(sep).join('/'))
      .filter((key) => key.startsWith(prefix))
      .sort();
  }

  async delete(keys: readonly string[]): Promise<void> {
    for (const key of keys) {
      const path = this.pathOf('delete', key);
      await this.attempt('delete', key, async () => {
        await rm(path, { force: true });
        await this.removeEmptyParents(dirname(path));
      });
    }
  }

  close(): void {}

  private async removeEmptyParents(directory: string): Promise<void> {
    for (let current = directory; current !== this.root && current.startsWith(this.root); current = dirname(current)) {
      const removed = await rmdir(current).then(
        () => true,
        () => false,
      );
      if (!removed) return;
    }
  }

  private pathOf(operation: string, key: string): string {
    if (!KEY_PATTERN.test(key)) throw new ObjectStoreError(operation, key, { cause: new Error('not a key: path segments of letters, digits, ".", "_" and "-"') });
    return join(this.root, ...key.split('/'));
  }

  private async attempt<T>(operation: string, key: string, run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      throw new ObjectStoreError(operation, key, { cause: error, ...(error instanceof Error && 'code' in error && typeof error.code === 'string' ? { code: error.code } : {}) });
    }
  }
}
