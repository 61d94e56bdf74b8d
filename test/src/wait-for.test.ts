import { describe, expect, it } from 'vitest';
import { waitFor } from './wait-for.js';

describe('waitFor', () => {
  it('returns the first accepted value, retrying reads that throw', async () => {
    let calls = 0;
    const read = (): Promise<number> => {
      calls += 1;
      return calls < 3 ? Promise.reject(new Error('not yet')) : Promise.resolve(calls);
    };
    await expect(waitFor('three reads', read, (value) => value >= 3, 5_000, 10)).resolves.toBe(3);
  });

  it('names what it waited for and the last value when it times out', async () => {
    await expect(waitFor('the answer', () => Promise.resolve({ answer: 41 }), (value) => value.answer === 42, 100, 10)).rejects.toThrow(
      /timed out after 100 ms waiting for the answer; last: {"answer":41}/,
    );
  });
});
