// The binding annotations are on users' workloads already: their keys never change.
import { describe, expect, it } from 'vitest';
import { ROLLING_BINDING_ANNOTATION, SCALE_BINDING_ANNOTATION } from './binding.js';

describe('the binding annotations', () => {
  it("are each in its trait's API group", () => {
    expect(SCALE_BINDING_ANNOTATION).toBe('scale.zookeeper.zkoam.dev/trait');
    expect(ROLLING_BINDING_ANNOTATION).toBe('rolling.zookeeper.zkoam.dev/trait');
  });
});
