import { describe, expect, it } from 'vitest';
import { sampleValues } from './metric-samples.js';

const exposition = [
  '# TYPE controller_runtime_reconcile_total counter',
  'controller_runtime_reconcile_total{controller="scale",result="success"} 4',
  'controller_runtime_reconcile_total{controller="scale",result="error"} 1',
  'controller_runtime_reconcile_total_other 9',
  'process_open_fds 12',
].join('\n');

describe('sampleValues', () => {
  it('takes the series whose labels include the ones asked for, and every series when none are', () => {
    expect(sampleValues(exposition, 'controller_runtime_reconcile_total', { result: 'success' })).toStrictEqual([4]);
    expect(sampleValues(exposition, 'controller_runtime_reconcile_total')).toStrictEqual([4, 1]);
    expect(sampleValues(exposition, 'process_open_fds')).toStrictEqual([12]);
  });
});
