// The joiner's server line comes from a committed member's line with the host swapped.
import { parseServerLine } from '@zk-oam/zookeeper';
import { describe, expect, it } from 'vitest';
import { memberEntry, MemberEntryError } from './member-entry.js';

function line(text: string) {
  const entry = parseServerLine(text);
  if (entry === undefined) throw new Error(`not a server line: ${text}`);
  return entry;
}

describe('memberEntry', () => {
  it('swaps the host of the lowest member for the joiner, keeping domain, ports and client address style', () => {
    const committed = [
      line('server.2=zk-1.zk-headless.ns.svc.cluster.local:2888:3888:participant;zk-1.zk-headless.ns.svc.cluster.local:2181'),
      line('server.1=zk-0.zk-headless.ns.svc.cluster.local:2888:3888:participant;zk-0.zk-headless.ns.svc.cluster.local:2181'),
    ];
    expect(memberEntry(committed, 'zk', 4)).toEqual(
      line('server.4=zk-3.zk-headless.ns.svc.cluster.local:2888:3888:participant;zk-3.zk-headless.ns.svc.cluster.local:2181'),
    );
  });

  it('keeps a client address that is not the member host (all addresses)', () => {
    const committed = [line('server.1=zk-0.zk-headless.ns.svc.cluster.local:2888:3888:participant;0.0.0.0:2181')];
    expect(memberEntry(committed, 'zk', 2).clientAddress).toBe('0.0.0.0');
  });

  it('refuses members addressed some other way', () => {
    const committed = [line('server.1=10.0.0.1:2888:3888:participant;2181')];
    expect(() => memberEntry(committed, 'zk', 2)).toThrow(MemberEntryError);
  });
});
