import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { readRenamedSettings, warnOfOldSettingNames } from './renamed-settings.js';

const RENAMES = [{ old: 'POLL_PERIOD_MS', now: 'STEP_PERIOD_MS' }];

describe('readRenamedSettings', () => {
  it('reads an old name as the new one, and says it found it', () => {
    const read = readRenamedSettings({ POLL_PERIOD_MS: '1000' }, RENAMES);
    expect(read.env).toMatchObject({ STEP_PERIOD_MS: '1000' });
    expect(read.oldNamesRead).toEqual([{ old: 'POLL_PERIOD_MS', now: 'STEP_PERIOD_MS', overridden: false }]);
  });

  it('keeps the new name where both are set', () => {
    const read = readRenamedSettings({ POLL_PERIOD_MS: '1000', STEP_PERIOD_MS: '3000' }, RENAMES);
    expect(read.env).toMatchObject({ STEP_PERIOD_MS: '3000' });
    expect(read.oldNamesRead).toEqual([{ old: 'POLL_PERIOD_MS', now: 'STEP_PERIOD_MS', overridden: true }]);
  });

  it('finds nothing in an environment with the new names alone', () => {
    expect(readRenamedSettings({ STEP_PERIOD_MS: '3000' }, RENAMES)).toEqual({ env: { STEP_PERIOD_MS: '3000' }, oldNamesRead: [] });
  });
});

describe('warnOfOldSettingNames', () => {
  it('warns once per old name, naming the new one', () => {
    const lines: string[] = [];
    const log = pino({ level: 'warn' }, { write: (line: string) => lines.push(line) });
    warnOfOldSettingNames(log, readRenamedSettings({ POLL_PERIOD_MS: '1000' }, RENAMES).oldNamesRead);
    expect(lines.map((line) => JSON.parse(line) as Record<string, unknown>)).toEqual([
      expect.objectContaining({ level: 40, setting: 'POLL_PERIOD_MS', renamedTo: 'STEP_PERIOD_MS', msg: 'the setting POLL_PERIOD_MS is renamed STEP_PERIOD_MS: read as STEP_PERIOD_MS until the next release' }),
    ]);
  });
});
