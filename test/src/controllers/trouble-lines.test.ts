import { describe, expect, it } from 'vitest';
import { troubleLines } from './controller-process.js';

const log = [
  '{"level":30,"msg":"caches synced; starting controllers"}',
  '{"level":40,"msg":"lease request failed"}',
  '{"level":50,"msg":"could not renew the lease in time; leadership lost"}',
  '',
  'node:internal/process/promises:394',
  '{"level":60,"msg":"invalid environment"}',
].join('\n');

describe('troubleLines', () => {
  it("keeps a log's errors, fatals and lines that are not pino's, in order, the last ones when there are many", () => {
    expect(troubleLines(log)).toStrictEqual([
      '{"level":50,"msg":"could not renew the lease in time; leadership lost"}',
      'node:internal/process/promises:394',
      '{"level":60,"msg":"invalid environment"}',
    ]);
    expect(troubleLines(log, 1)).toStrictEqual(['{"level":60,"msg":"invalid environment"}']);
  });
});
