import { describe, expect, it } from 'vitest';
import { NoServingMemberError, PodWithoutIpError } from './errors.js';

describe("an observation's reasons", () => {
  it('say why, name the pod, and take no stack trace', () => {
    const error = new PodWithoutIpError('zk-0');
    expect(error).toMatchObject({ name: 'PodWithoutIpError', pod: 'zk-0', message: 'pod zk-0 has no IP yet' });
    expect(error).toBeInstanceOf(Error);
    expect(error.stack ?? '').not.toContain('\n    at ');
    expect(new NoServingMemberError(3).stack ?? '').not.toContain('\n    at ');
  });

  it('leave stack traces of every other error as they were', () => {
    const before = Error.stackTraceLimit;
    new PodWithoutIpError('zk-1');
    expect(Error.stackTraceLimit).toBe(before);
    expect(new Error('elsewhere').stack).toContain('\n    at ');
  });
});
