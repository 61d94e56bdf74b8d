import { describe, expect, it } from 'vitest';
import { clusterFacts, ensembleFacts } from './facts.js';

describe('the NATS facts a stream follows', () => {
  it("an ensemble's: its own subjects only (a dotted name is one subject token), from an hour back", () => {
    expect(ensembleFacts('kafka', 'zk.main', new Date('2026-11-25T18:00:00Z'))).toEqual({
      filterSubject: 'zk.kafka.zk_main.*',
      since: new Date('2026-11-25T17:00:00Z'),
    });
  });

  it("a cluster's: every ensemble of the namespace it covers, or of all of them, new facts only", () => {
    expect(clusterFacts('kafka')).toEqual({ filterSubject: 'zk.kafka.*.*' });
    expect(clusterFacts(undefined)).toEqual({ filterSubject: 'zk.*.*.*' });
  });
});
