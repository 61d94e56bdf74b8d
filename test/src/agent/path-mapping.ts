// Maps paths inside the pod (volume mount paths) to host directories, since the container runs as a host process.

export interface PathMapping {
  mountPath: string;
  hostPath: string;
}

/** Longest mount path first, so /data/log wins over /data. */
export function sortMappings(mappings: readonly PathMapping[]): PathMapping[] {
  return [...mappings].sort((a, b) => b.mountPath.length - a.mountPath.length);
}

/**
 * Rewrites a value that starts with a mount path (exactly, or followed by "/") to the host directory.
 * Only the start of the value is looked at: paths inside scripts or config files stay as they are.
 */
export function mapPath(value: string, mappings: readonly PathMapping[]): string {
  for (const { mountPath, hostPath } of sortMappings(mappings)) {
    const trimmed = mountPath.replace(/\/+$/, '');
    if (trimmed === '') {
      continue;
    }
    if (value === trimmed || value.startsWith(`${trimmed}/`)) {
      return hostPath + value.slice(trimmed.length);
    }
  }
  return value;
}
