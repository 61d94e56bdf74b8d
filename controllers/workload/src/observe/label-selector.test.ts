// The label selector string of the scale subresource.
import { describe, expect, it } from 'vitest';
import { formatLabelSelector } from './label-selector.js';

describe('formatLabelSelector', () => {
  it('writes labels sorted, then expressions, as kubectl reads them', () => {
    expect(
      formatLabelSelector({
        matchLabels: { b: '2', a: '1' },
        matchExpressions: [
          { key: 'tier', operator: 'In', values: ['web', 'db'] },
          { key: 'zone', operator: 'NotIn', values: ['x'] },
          { key: 'ssd', operator: 'Exists' },
          { key: 'old', operator: 'DoesNotExist' },
        ],
      }),
    ).toBe('a=1,b=2,tier in (db,web),zone notin (x),ssd,!old');
  });
});
