import { describe, expect, it } from 'vitest';
import { ReconcileStepError, runStep, stepRunner } from './step-error.js';

class UserFixable extends Error {}

describe('runStep', () => {
  it('returns what the step returns', async () => {
    await expect(runStep({ step: 'Apply', object: 'Widget ns/w' }, () => Promise.resolve(7))).resolves.toBe(7);
  });

  it('names the step, its category and the object, and keeps the cause', async () => {
    const cause = new Error('connection refused');
    const failing = runStep({ step: 'Act', category: 'ReconfigFailed', object: 'Widget ns/w' }, () => Promise.reject(cause));
    await expect(failing).rejects.toMatchObject({ step: 'Act', category: 'ReconfigFailed', object: 'Widget ns/w', cause });
    await expect(failing).rejects.toThrow('Act for Widget ns/w failed (ReconfigFailed): connection refused');
  });

  it('uses the step as the category when none is given', async () => {
    const failing = runStep({ step: 'Bind', object: 'Widget ns/w' }, () => Promise.reject(new Error('409')));
    await expect(failing).rejects.toMatchObject({ category: 'Bind', message: 'Bind for Widget ns/w failed: 409' });
  });

  it('keeps an inner step error and an error the caller lets through as they are', async () => {
    const inner = new ReconcileStepError('Observe', 'Observe', 'Widget ns/w', { cause: new Error('timeout') });
    await expect(runStep({ step: 'Act', object: 'Widget ns/w' }, () => Promise.reject(inner))).rejects.toBe(inner);
    const fixable = new UserFixable('fix the Secret');
    const passThrough = (error: unknown): boolean => error instanceof UserFixable;
    await expect(runStep({ step: 'Act', object: 'Widget ns/w' }, () => Promise.reject(fixable), passThrough)).rejects.toBe(fixable);
  });
});

describe('stepRunner', () => {
  it("names the kind and key of the object, the step and the reason a failure gives", async () => {
    const inStep = stepRunner<'Act', 'ReconfigFailed'>('Widget');
    const failing = inStep('Act', 'ReconfigFailed', { namespace: 'ns', name: 'w' }, () => Promise.reject(new Error('ZBADVERSION')));
    await expect(failing).rejects.toMatchObject({ step: 'Act', category: 'ReconfigFailed', object: 'Widget ns/w' });
    await expect(failing).rejects.toThrow('Act for Widget ns/w failed (ReconfigFailed): ZBADVERSION');
    await expect(inStep('Act', 'ReconfigFailed', { namespace: 'ns', name: 'w' }, () => Promise.resolve(3))).resolves.toBe(3);
  });
});
