// What a resync's list of pods may stop: only the workers that were there before the list was asked for.
import type { V1Pod } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { unlistedWorkers } from './pod-fleet.js';

const podOf = (uid: string): V1Pod => ({ metadata: { uid } });

describe('unlistedWorkers', () => {
  it('names the workers known before the list whose pods it lacks', () => {
    expect(unlistedWorkers(new Set(['a', 'b', 'c']), ['a', 'b', 'c'], [podOf('a'), podOf('c')])).toEqual(['b']);
  });

  it('leaves a worker started while the list was under way, though its pod is missing from the list', () => {
    expect(unlistedWorkers(new Set(['a', 'b']), ['a', 'b', 'late'], [podOf('a')])).toEqual(['b']);
  });

  it('leaves a worker that finished while the list was under way', () => {
    expect(unlistedWorkers(new Set(['a', 'gone']), ['a'], [podOf('a')])).toEqual([]);
  });
});
