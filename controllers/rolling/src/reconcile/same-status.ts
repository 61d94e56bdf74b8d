// Whether the next status says nothing new, so an unchanged roll costs no status write.
import { isDeepStrictEqual } from 'node:util';
import { rollingStatusSchema, type ZookeeperRollingStatus } from '@zk-oam/apis';

/** The stored status when it parses; a malformed one counts as none (it is then rewritten whole). */
export function storedStatus(raw: unknown): ZookeeperRollingStatus | undefined {
  const parsed = rollingStatusSchema.safeParse(raw);
  return parsed.success ? parsed.data : undefined;
}

/** `next` is read back as JSON through the schema, as the stored one was: absent and undefined fields compare equal. */
export function sameStatus(stored: ZookeeperRollingStatus | undefined, next: ZookeeperRollingStatus): boolean {
  return stored !== undefined && isDeepStrictEqual(stored, storedStatus(JSON.parse(JSON.stringify(next))));
}
