// The server line a joining member is reconfigured in with, derived from the committed config (pure).
//
// Every member runs with `<statefulset>-<ordinal>.<domain>` and the same ports, where the domain is the headless
// Service's; the joiner's start script announces itself that way. So the line of any committed member, with the host
// swapped, is the joiner's: no copy of the workload's layout here, and a changed layout carries over by itself.
import { podOfMember } from '@zk-oam/apis';
import type { ServerEntry } from '@zk-oam/zookeeper';

export class MemberEntryError extends Error {
  override readonly name = 'MemberEntryError';
}

export function memberEntry(committed: readonly ServerEntry[], statefulSet: string, myid: number): ServerEntry {
  const template = [...committed].sort((a, b) => a.id - b.id)[0];
  const prefix = `${podOfMember(statefulSet, template?.id ?? 1)}.`;
  if (template === undefined || !template.host.startsWith(prefix)) {
    throw new MemberEntryError(`cannot derive the server line of member ${myid}: no committed member is addressed as ${prefix}<domain>`);
  }
  const host = `${podOfMember(statefulSet, myid)}.${template.host.slice(prefix.length)}`;
  return {
    ...template,
    id: myid,
    host,
    role: 'participant',
    clientAddress: template.clientAddress === template.host ? host : template.clientAddress,
  };
}
