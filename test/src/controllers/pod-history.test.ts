import type { V1Pod } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { tallyPods } from './pod-history.js';

type State = 'ready' | 'notReady' | 'terminating';

function pod(name: string, uid: string, state: State): V1Pod {
  return {
    metadata: { name, uid, ...(state === 'terminating' ? { deletionTimestamp: new Date(0) } : {}) },
    status: { conditions: [{ type: 'Ready', status: state === 'ready' ? 'True' : 'False' }] },
  };
}

/** A list from a compact description: `{ 'zk-0': 'a:ready' }` is pod zk-0 with uid a, Ready. */
function list(at: number, pods: Record<string, `${string}:${State}`>): { at: number; pods: V1Pod[] } {
  return {
    at,
    pods: Object.entries(pods).map(([name, entry]) => {
      const [uid = '', state = 'ready'] = entry.split(':') as [string, State];
      return pod(name, uid, state);
    }),
  };
}

const allReady = list(0, { 'zk-0': 'a:ready', 'zk-1': 'b:ready', 'zk-2': 'c:ready' });

describe('tallyPods', () => {
  it('counts nothing before every member is Ready in one list: members not Ready before the roll starts are not down', () => {
    const tally = tallyPods(3, [
      list(1, { 'zk-0': 'a:notReady', 'zk-1': 'b:notReady', 'zk-2': 'c:notReady' }),
      list(2, { 'zk-0': 'a:ready', 'zk-1': 'b:notReady', 'zk-2': 'c:ready' }),
      { ...allReady, at: 3 },
      list(4, { 'zk-0': 'a:notReady', 'zk-1': 'b:ready', 'zk-2': 'c:terminating' }),
      list(5, { 'zk-0': 'a:ready', 'zk-1': 'b:ready', 'zk-2': 'c2:notReady' }),
    ]);

    expect(tally.baselined).toBe(true);
    expect(tally.restarts).toEqual([{ pod: 'zk-2', uid: 'c', at: 4 }]);
    expect(tally.mostDown).toBe(1);
  });

  it('does not count a readiness dip of members the roll is not replacing, not even of all of them at once', () => {
    const tally = tallyPods(3, [allReady, list(1, { 'zk-0': 'a:notReady', 'zk-1': 'b:notReady', 'zk-2': 'c:notReady' }), allReady]);

    expect(tally.restarts).toEqual([]);
    expect(tally.returns).toEqual([]);
    expect(tally.mostDown).toBe(0);
  });

  it('records a roll one pod at a time in order, each down while Terminating, missing, or replaced and not Ready yet', () => {
    const tally = tallyPods(3, [
      allReady,
      list(1, { 'zk-0': 'a:ready', 'zk-1': 'b:ready', 'zk-2': 'c:terminating' }),
      list(2, { 'zk-0': 'a:ready', 'zk-1': 'b:ready' }),
      list(3, { 'zk-0': 'a:ready', 'zk-1': 'b:ready', 'zk-2': 'c2:notReady' }),
      list(4, { 'zk-0': 'a:ready', 'zk-1': 'b:ready', 'zk-2': 'c2:ready' }),
      list(5, { 'zk-0': 'a:ready', 'zk-1': 'b:terminating', 'zk-2': 'c2:notReady' }),
      list(6, { 'zk-0': 'a:ready', 'zk-1': 'b2:ready', 'zk-2': 'c2:ready' }),
      list(7, { 'zk-0': 'a:terminating', 'zk-1': 'b2:ready', 'zk-2': 'c2:ready' }),
      list(8, { 'zk-0': 'a2:ready', 'zk-1': 'b2:ready', 'zk-2': 'c2:ready' }),
    ]);

    expect(tally.restarts.map((restart) => restart.pod)).toEqual(['zk-2', 'zk-1', 'zk-0']);
    expect(tally.restarts.map((restart) => restart.at)).toEqual([1, 5, 7]);
    expect(tally.mostDown).toBe(1);
    expect(tally.returns).toEqual([
      { pod: 'zk-2', uid: 'c2', at: 4 },
      { pod: 'zk-1', uid: 'b2', at: 6 },
      { pod: 'zk-0', uid: 'a2', at: 8 },
    ]);
  });

  it('counts two down when a second member goes while the first replacement has never been Ready', () => {
    const tally = tallyPods(3, [
      allReady,
      list(1, { 'zk-0': 'a:ready', 'zk-1': 'b:ready', 'zk-2': 'c:terminating' }),
      list(2, { 'zk-0': 'a:ready', 'zk-1': 'b:terminating', 'zk-2': 'c2:notReady' }),
    ]);

    expect(tally.mostDown).toBe(2);
    expect(tally.restarts.map((restart) => restart.pod)).toEqual(['zk-2', 'zk-1']);
  });

  it('counts a missing member as down and its restart once, however long it stays away', () => {
    const tally = tallyPods(3, [
      allReady,
      list(1, { 'zk-0': 'a:ready', 'zk-1': 'b:ready' }),
      list(2, { 'zk-0': 'a:ready', 'zk-1': 'b:ready' }),
      list(3, { 'zk-0': 'a:ready', 'zk-1': 'b:ready', 'zk-2': 'c2:ready' }),
    ]);

    expect(tally.restarts).toEqual([{ pod: 'zk-2', uid: 'c', at: 1 }]);
    expect(tally.mostDown).toBe(1);
  });
});
