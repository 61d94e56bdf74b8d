// Component revisions: one per spec change, numbered past everything seen, the oldest unpinned ones beyond the limit removed.
import type { Component } from '@zk-oam/apis';
import { describe, expect, it } from 'vitest';
import { component } from '../render/fixtures.js';
import { currentRevisionName, planRevisions, revisionName, type StoredRevision } from './plan.js';

function withSpec(tickTime: number, latestRevision?: number): Component {
  const { status: _fixtureStatus, ...withoutStatus } = component;
  const workload = { ...component.spec.workload, spec: { config: { tickTime } } };
  return {
    ...withoutStatus,
    spec: { ...component.spec, workload },
    ...(latestRevision === undefined ? {} : { status: { latestRevision: { name: revisionName('zk', latestRevision), revision: latestRevision } } }),
  };
}

function stored(revision: number, tickTime: number): StoredRevision {
  return { name: revisionName('zk', revision), revision, component: withSpec(tickTime) };
}

const none = new Set<string>();

describe('planRevisions', () => {
  it('creates v1 for a Component without revisions', () => {
    expect(planRevisions({ component: withSpec(2000), revisions: [], pinned: none, limit: 50 })).toEqual({
      create: { name: 'zk-v1', revision: 1 },
      latest: { name: 'zk-v1', revision: 1 },
      remove: [],
    });
  });

  it('creates nothing while the newest revision holds the same spec, whatever older ones hold', () => {
    const plan = planRevisions({ component: withSpec(2000, 2), revisions: [stored(2, 2000), stored(1, 3000)], pinned: none, limit: 50 });
    expect(plan).toEqual({ create: undefined, latest: { name: 'zk-v2', revision: 2 }, remove: [] });
  });

  it('creates the next revision when the spec changes, also back to an older spec', () => {
    expect(planRevisions({ component: withSpec(3000, 2), revisions: [stored(1, 3000), stored(2, 2000)], pinned: none, limit: 50 }).create).toEqual({ name: 'zk-v3', revision: 3 });
  });

  it('never reuses a number: past the status when a revision was deleted, past the revisions when the status was lost', () => {
    expect(planRevisions({ component: withSpec(4000, 5), revisions: [stored(2, 2000)], pinned: none, limit: 50 }).create?.revision).toBe(6);
    expect(planRevisions({ component: withSpec(4000), revisions: [stored(1, 1000), stored(3, 2000)], pinned: none, limit: 50 }).create?.revision).toBe(4);
  });

  it('treats a revision whose data does not parse as different', () => {
    const broken: StoredRevision = { name: 'zk-v1', revision: 1, component: undefined };
    expect(planRevisions({ component: withSpec(2000, 1), revisions: [broken], pinned: none, limit: 50 }).create).toEqual({ name: 'zk-v2', revision: 2 });
  });

  it('removes the oldest revisions beyond the limit, keeping the pinned ones and the newest', () => {
    const revisions = [stored(1, 1), stored(2, 2), stored(3, 3), stored(4, 4)];
    expect(planRevisions({ component: withSpec(5, 4), revisions, pinned: new Set(['zk-v1']), limit: 2 })).toEqual({
      create: { name: 'zk-v5', revision: 5 },
      latest: { name: 'zk-v5', revision: 5 },
      remove: ['zk-v2', 'zk-v3'],
    });
    expect(planRevisions({ component: withSpec(4, 4), revisions, pinned: none, limit: 1 }).remove).toEqual(['zk-v1', 'zk-v2', 'zk-v3']);
  });
});

describe('currentRevisionName', () => {
  it('is the recorded latest revision once it records this generation, else the one the plan will write next', () => {
    const recorded: Component = { ...component, metadata: { ...component.metadata, generation: 4 }, status: { observedGeneration: 4, latestRevision: { name: 'zk-v3', revision: 3 } } };
    expect(currentRevisionName(recorded)).toBe('zk-v3');
    expect(currentRevisionName({ ...recorded, metadata: { ...recorded.metadata, generation: 5 } })).toBe('zk-v4');
    expect(currentRevisionName(withSpec(2000))).toBe('zk-v1');
  });
});
