import { describe, expect, it } from 'vitest';
import type { Clock } from './clock.js';
import { RequeuePacer } from './requeue-pacer.js';

function clockAt(start: number): Clock & { advance(ms: number): void } {
  let now = start;
  return {
    now: () => now,
    setTimeout: () => setTimeout(() => undefined, 0),
    clearTimeout: () => undefined,
    sleep: () => Promise.resolve(),
    advance: (ms) => {
      now += ms;
    },
  };
}

describe('RequeuePacer', () => {
  it('gives about the period when there is room', () => {
    const pacer = new RequeuePacer({ perSecond: 10, clock: clockAt(0), random: () => 0.5 });
    expect(pacer.delayMs('a', 10_000)).toBe(10_000);
  });

  it('lets no more than perSecond fall due in any second, however many keys ask for the same time', () => {
    const pacer = new RequeuePacer({ perSecond: 20, clock: clockAt(0), random: () => 0.5 });
    const due = Array.from({ length: 1000 }, (_, i) => pacer.delayMs(`key-${String(i)}`, 10_000));
    const perSecond = new Map<number, number>();
    for (const ms of due) perSecond.set(Math.floor(ms / 1000), (perSecond.get(Math.floor(ms / 1000)) ?? 0) + 1);
    expect(Math.max(...perSecond.values())).toBe(20);
    expect(Math.min(...due)).toBe(10_000);
    expect(Math.max(...due)).toBeCloseTo(10_000 + 999 * 50, 6);
  });

  it('jitters the period by up to the fraction asked', () => {
    const low = new RequeuePacer({ perSecond: 100, jitter: 0.2, clock: clockAt(0), random: () => 0 });
    const high = new RequeuePacer({ perSecond: 100, jitter: 0.2, clock: clockAt(0), random: () => 0.999_999 });
    expect(low.delayMs('a', 10_000)).toBe(8_000);
    expect(high.delayMs('a', 10_000)).toBeCloseTo(12_000, -1);
  });

  it('gives a key one slot: asking again frees the earlier one, and past slots are forgotten', () => {
    const clock = clockAt(0);
    const pacer = new RequeuePacer({ perSecond: 1, clock, random: () => 0.5 });
    pacer.delayMs('a', 5_000);
    expect(pacer.delayMs('a', 5_000)).toBe(5_000);
    expect(pacer.delayMs('b', 5_000)).toBe(6_000);
    expect(pacer.reserved()).toBe(2);
    clock.advance(60_000);
    pacer.delayMs('c', 1_000);
    expect(pacer.reserved()).toBe(1);
    pacer.release('c');
    expect(pacer.reserved()).toBe(0);
  });

  it('refuses a rate that is not positive', () => {
    expect(() => new RequeuePacer({ perSecond: 0 })).toThrow(/perSecond must be positive/);
  });
});
