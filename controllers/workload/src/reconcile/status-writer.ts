// Writes a workload's status (server-side apply on /status) only when it differs from the stored one.
import { workloadStatusSchema, type ZookeeperWorkloadStatus } from '@zk-oam/apis';
import { applyStatus, type KubeClient, type ObjectKey } from '@zk-oam/runtime';
import { canonicalJson } from './applied-hash.js';
import { FIELD_MANAGER } from './markers.js';
import { workloadResource } from './resource-types.js';

function comparable(status: ZookeeperWorkloadStatus | undefined): string {
  return status === undefined ? '' : canonicalJson(status);
}

/** `next` is read back through the schema first, as the stored one was, so a field the API would drop never looks new. */
export function sameStatus(stored: ZookeeperWorkloadStatus | undefined, next: ZookeeperWorkloadStatus): boolean {
  return comparable(stored) === comparable(storedStatus(next) ?? next);
}

/** The stored status when it parses; a malformed one counts as none (it is then rewritten whole). */
export function storedStatus(raw: unknown): ZookeeperWorkloadStatus | undefined {
  const parsed = workloadStatusSchema.safeParse(raw);
  return parsed.success ? parsed.data : undefined;
}

/** Returns whether a write was made. */
export async function writeStatusIfChanged(
  client: KubeClient,
  key: ObjectKey,
  stored: ZookeeperWorkloadStatus | undefined,
  next: ZookeeperWorkloadStatus,
): Promise<boolean> {
  if (sameStatus(stored, next)) return false;
  await applyStatus(client, workloadResource, key, { ...next }, { fieldManager: FIELD_MANAGER });
  return true;
}
