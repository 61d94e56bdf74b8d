// Conflict retry: another attempt after each 409, at the kit's backoff (10 ms doubling, stretched by up to 100%).
import { describe, expect, it } from 'vitest';
import { KubeApiError } from '../kube/client.js';
import { systemClock, type Clock } from '../queue/clock.js';
import { retryOnConflict } from './conflict-retry.js';

const conflict = (): KubeApiError => new KubeApiError(409, 'Conflict', 'PUT', '/x', 'the object has been modified');

/** The system clock, but its sleeps end at once and are recorded. */
function recordingClock(): { clock: Clock; slept: number[] } {
  const slept: number[] = [];
  return { clock: { ...systemClock, sleep: (ms) => Promise.resolve(void slept.push(ms)) }, slept };
}

describe('retryOnConflict', () => {
  it('tries again after each conflict, waiting 10 ms doubled each time and stretched by less than 100%', async () => {
    const { clock, slept } = recordingClock();
    let calls = 0;
    const written = await retryOnConflict(() => (++calls < 5 ? Promise.reject(conflict()) : Promise.resolve('written')), { clock });
    expect([written, calls]).toStrictEqual(['written', 5]);
    expect(slept).toHaveLength(4);
    slept.forEach((ms, index) => {
      expect(ms).toBeGreaterThanOrEqual(10 * 2 ** index);
      expect(ms).toBeLessThanOrEqual(20 * 2 ** index);
    });
  });

  it('gives up after its attempts with the conflict, and lets any other error through at once', async () => {
    const { clock, slept } = recordingClock();
    await expect(retryOnConflict(() => Promise.reject(conflict()), { attempts: 2, clock })).rejects.toMatchObject({ code: 409 });
    expect(slept).toHaveLength(1);
    const gone = new KubeApiError(404, 'NotFound', 'PUT', '/x', 'not found');
    await expect(retryOnConflict(() => Promise.reject(gone), { clock })).rejects.toBe(gone);
    expect(slept).toHaveLength(1);
  });
});
