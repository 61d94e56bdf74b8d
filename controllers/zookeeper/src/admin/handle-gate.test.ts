import { afterEach, describe, expect, it, vi } from 'vitest';
import { ZooKeeperConnectionError } from './errors.js';
import { HandleGate } from './handle-gate.js';

const context = { operation: 'connect', connectString: '127.0.0.1:2181' };

describe('HandleGate', () => {
  afterEach(() => vi.useRealTimers());

  it('lets one holder in at a time, in the order they came', async () => {
    const gate = new HandleGate();
    const order: string[] = [];
    const first = await gate.enter(1_000, context);
    const second = gate.enter(1_000, context).then((release) => {
      order.push('second entered');
      return release;
    });
    const third = gate.enter(1_000, context).then((release) => {
      order.push('third entered');
      return release;
    });
    await Promise.resolve();
    expect(order).toEqual([]);
    order.push('first leaves');
    first();
    (await second)();
    (await third)();
    expect(order).toEqual(['first leaves', 'second entered', 'third entered']);
  });

  it('gives up after its budget while another handle stays open, without holding up those queued behind it', async () => {
    const gate = new HandleGate();
    const stuck = await gate.enter(1_000, context);
    const impatient = gate.enter(20, context);
    const patient = gate.enter(5_000, context);
    await expect(impatient).rejects.toBeInstanceOf(ZooKeeperConnectionError);
    await expect(impatient).rejects.toThrow('another ZooKeeper handle of this process stayed open for 20 ms');
    stuck();
    const release = await patient;
    release();
  });

  it('leaves no timer behind once a caller is in', async () => {
    vi.useFakeTimers();
    const gate = new HandleGate();
    const release = await gate.enter(60_000, context);
    expect(vi.getTimerCount()).toBe(0);
    release();
  });
});
