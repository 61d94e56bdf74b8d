import { describe, expect, it } from 'vitest';
import { pushedReference } from './push-images.js';

describe('pushedReference', () => {
  it('puts the image name and tag under the registry and its prefix', () => {
    expect(pushedReference('registry.example:5000/team/', { reference: 'ghcr.io/zk-oam/workload:0.1.0' })).toBe('registry.example:5000/team/workload:0.1.0');
  });
});
