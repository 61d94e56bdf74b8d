import { describe, expect, it } from 'vitest';
import { readinessReply } from './http-server.js';

describe('readinessReply', () => {
  it('is ok when every controller is ready, else names each one that is not, one line each', () => {
    const ready = { name: 'workload', problem: () => undefined };
    expect(readinessReply([ready])).toEqual({ status: 200, body: 'ok\n' });
    expect(readinessReply([ready, { name: 'scale', problem: () => 'informer caches not synced yet' }, { name: 'rolling', problem: () => 'starting' }])).toEqual({
      status: 503,
      body: 'scale: informer caches not synced yet\nrolling: starting\n',
    });
  });
});
