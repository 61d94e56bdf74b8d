// A condition is news when it appears or changes status or reason; a Warning follows only the first time it says so.
import { describe, expect, it } from 'vitest';
import { conditionNews, warningOnNews } from './condition-news.js';

const ready = (status: 'True' | 'False', reason: string, message = `${reason} happened`) => [{ type: 'Ready', status, reason, message }];
const actions = { InvalidSpec: 'Validate', LockLost: 'Lock' };

describe('conditionNews', () => {
  it('is the condition when it is new, or its status or reason changed; not when only its message did', () => {
    expect(conditionNews(undefined, ready('True', 'Idle'), 'Ready')).toMatchObject({ reason: 'Idle' });
    expect(conditionNews(ready('True', 'Idle'), ready('False', 'Idle'), 'Ready')).toMatchObject({ status: 'False' });
    expect(conditionNews(ready('False', 'Idle'), ready('False', 'Busy'), 'Ready')).toMatchObject({ reason: 'Busy' });
    expect(conditionNews(ready('False', 'Busy', 'one'), ready('False', 'Busy', 'two'), 'Ready')).toBeUndefined();
    expect(conditionNews(ready('True', 'Idle'), [], 'Ready')).toBeUndefined();
  });
});

describe('warningOnNews', () => {
  it('warns once when the condition goes False for a listed reason, with that reason\'s action and the message as note', () => {
    expect(warningOnNews(ready('True', 'Idle'), ready('False', 'InvalidSpec', 'spec.replicas: too small'), 'Ready', actions)).toEqual({
      type: 'Warning',
      reason: 'InvalidSpec',
      action: 'Validate',
      note: 'spec.replicas: too small',
    });
    expect(warningOnNews(ready('False', 'InvalidSpec'), ready('False', 'InvalidSpec'), 'Ready', actions)).toBeUndefined();
  });

  it('does not warn for a reason it does not list, nor for a True condition', () => {
    expect(warningOnNews(undefined, ready('False', 'ScalingUp'), 'Ready', actions)).toBeUndefined();
    expect(warningOnNews(undefined, ready('True', 'LockLost'), 'Ready', actions)).toBeUndefined();
  });
});
