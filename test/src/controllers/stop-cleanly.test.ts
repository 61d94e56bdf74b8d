import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { stopCleanly, troubleLines } from './controller-process.js';

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

describe('stopCleanly', () => {
  const dir = mkdtemp(join(tmpdir(), 'stop-cleanly-'));
  afterAll(async () => rm(await dir, { recursive: true, force: true }));

  it('returns for an exit with 0, and otherwise throws with the code and what the log says went wrong', async () => {
    const logFile = join(await dir, 'controller.log');
    await writeFile(logFile, log);
    await expect(stopCleanly({ logFile, stop: () => Promise.resolve(0) })).resolves.toBeUndefined();
    const failed = stopCleanly({ logFile, stop: () => Promise.resolve(1) });
    await expect(failed).rejects.toThrow(`${logFile}: the process exited with 1, not 0`);
    await expect(failed).rejects.toThrow('leadership lost');
    await expect(failed).rejects.not.toThrow('lease request failed');
    await expect(stopCleanly(undefined)).rejects.toThrow('never started');
  });
});
