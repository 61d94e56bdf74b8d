// The reconfig delta between two memberships, formatted as ZooKeeper's joining/leaving arguments.
import { describe, expect, it } from 'vitest';
import { formatJoining, formatLeaving, isEmptyDelta, reconfigDelta } from './delta.js';
import type { ServerEntry } from './server-line.js';

function member(id: number, role: ServerEntry['role'] = 'participant'): ServerEntry {
  const ip = `10.0.0.${id}`;
  return { id, host: ip, quorumPort: 2888, electionPort: 3888, role, clientAddress: ip, clientPort: 2181 };
}

describe('reconfigDelta', () => {
  it('adds a member as a joining server line', () => {
    const delta = reconfigDelta([member(1), member(2), member(3)], [member(1), member(2), member(3), member(4)]);
    expect(formatJoining(delta)).toBe('server.4=10.0.0.4:2888:3888:participant;10.0.0.4:2181');
    expect(formatLeaving(delta)).toBeUndefined();
  });

  it('removes members by id, in id order', () => {
    const delta = reconfigDelta([member(1), member(2), member(3), member(4), member(5)], [member(1), member(3), member(2)]);
    expect(delta.joining).toEqual([]);
    expect(formatLeaving(delta)).toBe('4,5');
  });

  it('re-sends a member whose line changed, e.g. an observer promoted to participant', () => {
    const delta = reconfigDelta([member(1), member(2), member(3, 'observer')], [member(1), member(2), member(3)]);
    expect(delta).toEqual({ joining: [member(3)], leaving: [] });
  });

  it('is empty when nothing changes, whatever the order', () => {
    expect(isEmptyDelta(reconfigDelta([member(2), member(1)], [member(1), member(2)]))).toBe(true);
  });

  it('joins and leaves in one step', () => {
    const delta = reconfigDelta([member(1), member(2), member(3)], [member(1), member(2), member(4)]);
    expect({ joining: formatJoining(delta), leaving: formatLeaving(delta) }).toEqual({
      joining: 'server.4=10.0.0.4:2888:3888:participant;10.0.0.4:2181',
      leaving: '3',
    });
  });
});
