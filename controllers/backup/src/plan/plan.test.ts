// The pure decisions of the backup controller: when a run is due (a schedule ticks once per missed stretch, a new
// runTrigger runs at once, suspend stops everything), what retention deletes (never the newest), and what a backup's
// objects and manifest are, a corrupted or truncated object failing its check.
import { gunzipSync } from 'node:zlib';
import { backupManifestSchema } from '@zk-oam/apis';
import { describe, expect, it } from 'vitest';
import { cronSchedule } from './cron.js';
import { checkObject, packBackup, recordOf } from './manifest.js';
import { expiredBackups, planRetention } from './retention.js';
import { lastSuccessful, recordRun } from './runs.js';
import { decideRun, type ScheduleInput } from './schedule.js';

const MINUTE = 60_000;
const t0 = new Date('2026-11-29T03:00:00Z');
const at = (minutes: number): Date => new Date(t0.getTime() + minutes * MINUTE);
/** Every 5 minutes, as "*\/5 * * * *" ticks. */
const everyFive = (after: Date): Date => new Date((Math.floor(after.getTime() / (5 * MINUTE)) + 1) * 5 * MINUTE);

const input = (overrides: Omit<Partial<ScheduleInput>, 'spec'> & { spec?: Partial<ScheduleInput['spec']> }): ScheduleInput => ({
  lastStartedAt: undefined,
  observedRunTrigger: undefined,
  createdAt: at(-1),
  now: at(0),
  nextAfter: everyFive,
  ...overrides,
  spec: { suspend: false, schedule: '*/5 * * * *', ...overrides.spec },
});

describe('decideRun', () => {
  it('runs at the first tick after creation, then waits for the tick after the last run', () => {
    expect(decideRun(input({}))).toEqual({ kind: 'run', trigger: 'Schedule' });
    expect(decideRun(input({ lastStartedAt: at(0), now: at(1) }))).toEqual({ kind: 'wait', reason: 'Scheduled', nextRunAt: at(5) });
  });

  it('makes one run of ticks missed while nothing ran, and then waits for the next tick', () => {
    expect(decideRun(input({ lastStartedAt: at(0), now: at(23) }))).toEqual({ kind: 'run', trigger: 'Schedule' });
    expect(decideRun(input({ lastStartedAt: at(23), now: at(23) }))).toEqual({ kind: 'wait', reason: 'Scheduled', nextRunAt: at(25) });
  });

  it('runs once without a schedule, and again only for a new runTrigger', () => {
    const once = { spec: { schedule: undefined } };
    expect(decideRun(input(once))).toEqual({ kind: 'run', trigger: 'Once' });
    expect(decideRun(input({ ...once, lastStartedAt: at(0) }))).toEqual({ kind: 'wait', reason: 'Done', nextRunAt: undefined });
    expect(decideRun(input({ spec: { schedule: undefined, runTrigger: 'b' }, observedRunTrigger: 'a', lastStartedAt: at(0) }))).toEqual({ kind: 'run', trigger: 'RunTrigger' });
    expect(decideRun(input({ spec: { schedule: undefined, runTrigger: 'b' }, observedRunTrigger: 'b', lastStartedAt: at(0) }))).toMatchObject({ kind: 'wait' });
  });

  it('starts nothing while suspended, not even for a new runTrigger', () => {
    expect(decideRun(input({ spec: { suspend: true, runTrigger: 'x' } }))).toEqual({ kind: 'wait', reason: 'Suspended', nextRunAt: undefined });
  });
});

describe('cronSchedule', () => {
  it('steps a schedule in UTC, @ shorthands included', () => {
    const every = cronSchedule('*/5 * * * *');
    const daily = cronSchedule('@daily');
    expect(every.ok && every.nextAfter(new Date('2026-11-29T03:02:10Z'))).toEqual(new Date('2026-11-29T03:05:00Z'));
    expect(daily.ok && daily.nextAfter(new Date('2026-11-29T03:02:10Z'))).toEqual(new Date('2026-11-30T00:00:00Z'));
  });

  it('takes a sixth field first as seconds, the shortest real schedule', () => {
    const every20s = cronSchedule('*/20 * * * * *');
    expect(every20s.ok && every20s.nextAfter(new Date('2026-11-29T03:02:10Z'))).toEqual(new Date('2026-11-29T03:02:20Z'));
  });

  it('refuses what the CRD\'s pattern lets through but no clock has, naming the field', () => {
    expect(cronSchedule('61 * * * *')).toMatchObject({ ok: false, message: expect.stringContaining('spec.schedule "61 * * * *" is not a cron schedule') });
  });
});

describe('expiredBackups', () => {
  const backups = [0, 10, 20, 30, 40].map((minutes) => ({ id: `b${String(minutes)}`, finishedAt: at(minutes) }));

  it('keeps the newest count and deletes the older, oldest first', () => {
    expect(expiredBackups(backups, { count: 2 }, at(41))).toEqual(['b0', 'b10', 'b20']);
  });

  it('deletes those older than maxAgeHours, and with both bounds keeps the fewer', () => {
    const now = at(60 + 25);
    expect(expiredBackups(backups, { maxAgeHours: 1 }, now)).toEqual(['b0', 'b10', 'b20']);
    expect(expiredBackups(backups, { count: 1, maxAgeHours: 1 }, now)).toEqual(['b0', 'b10', 'b20', 'b30']);
  });

  it('never deletes the newest backup, however old', () => {
    expect(expiredBackups(backups, { maxAgeHours: 1 }, at(10_000))).toEqual(['b0', 'b10', 'b20', 'b30']);
    expect(expiredBackups([], { count: 1 }, at(0))).toEqual([]);
  });
});

describe('planRetention', () => {
  const prefix = 'p/ns/zk/';
  const backup = (id: string): string[] => [`${prefix}${id}/manifest.json`, `${prefix}${id}/znodes-00000.jsonl.gz`];

  it('deletes the expired backups manifest first, and the objects of runs that never finished before the newest backup', () => {
    const keys = [...backup('20261129T030000.000Z'), `${prefix}20261129T030500.000Z/znodes-00000.jsonl.gz`, ...backup('20261129T031000.000Z'), ...backup('20261129T031500.000Z'), `${prefix}20261129T032000.000Z/znodes-00000.jsonl.gz`, `${prefix}stray.txt`];
    const plan = planRetention(keys.sort(), prefix, { count: 2 }, at(20));
    expect(plan).toEqual({
      expired: ['20261129T030000.000Z'],
      incomplete: ['20261129T030500.000Z'],
      keys: [...backup('20261129T030000.000Z'), `${prefix}20261129T030500.000Z/znodes-00000.jsonl.gz`],
    });
  });
});

describe('packBackup', () => {
  const records = ['/', '/a', '/a/b', '/c'].map((path) => recordOf({ path, data: Buffer.from(`data of ${path}`), acl: [{ perms: 31, scheme: 'world', id: 'anyone' }] }));
  const facts = { id: '20261129T030000.000Z', workload: { namespace: 'ns', name: 'zk', uid: 'u1' }, zxid: 0x10000002an, startedAt: at(0), finishedAt: at(1) };

  it('splits the records over objects in order, and the manifest validates and describes each', () => {
    const { objects, manifest } = packBackup(records, facts, { records: 3, bytes: 1 << 20 });
    expect(backupManifestSchema.parse(manifest)).toEqual(manifest);
    expect(manifest).toMatchObject({ zxid: '0x10000002a', znodes: 4, startedAt: '2026-11-29T03:00:00.000Z' });
    expect(manifest.objects.map((entry) => [entry.name, entry.znodes])).toEqual([
      ['znodes-00000.jsonl.gz', 3],
      ['znodes-00001.jsonl.gz', 1],
    ]);
    const lines = objects.flatMap((object) => gunzipSync(object.body).toString('utf8').trim().split('\n'));
    expect(lines.map((line) => (JSON.parse(line) as { path: string }).path)).toEqual(['/', '/a', '/a/b', '/c']);
    expect(Buffer.from(records[1]?.data ?? '', 'base64').toString()).toBe('data of /a');
  });

  it('makes one empty object for an empty tree, so that every backup has one', () => {
    expect(packBackup([], facts).manifest.objects).toMatchObject([{ znodes: 0 }]);
  });

  it('finds a truncated or altered object by its size and checksum', () => {
    const { objects, manifest } = packBackup(records, facts);
    const [object] = objects;
    const [entry] = manifest.objects;
    if (object === undefined || entry === undefined) throw new Error('no object');
    expect(checkObject(entry, object.body)).toEqual({ ok: true });
    expect(checkObject(entry, object.body.subarray(0, -1))).toMatchObject({ ok: false, reason: expect.stringContaining('truncated') });
    const altered = Buffer.from(object.body);
    altered[altered.length - 5] = (altered[altered.length - 5] ?? 0) ^ 0xff;
    expect(checkObject(entry, altered)).toMatchObject({ ok: false, reason: expect.stringContaining('corrupted') });
  });
});

describe('recordRun', () => {
  const run = (id: string, outcome: 'Succeeded' | 'Failed') => ({ id, outcome, trigger: 'Schedule' as const, startedAt: t0.toISOString(), finishedAt: t0.toISOString() });

  it('keeps the newest first, at most 20, and finds the newest success', () => {
    let runs = recordRun(undefined, run('r0', 'Succeeded'));
    for (let index = 1; index <= 25; index++) runs = recordRun(runs, run(`r${String(index)}`, 'Failed'));
    expect(runs).toHaveLength(20);
    expect(runs[0]?.id).toBe('r25');
    expect(lastSuccessful(runs, run('r0', 'Succeeded'))?.id).toBe('r0');
    expect(lastSuccessful(recordRun(runs, run('r26', 'Succeeded')), undefined)?.id).toBe('r26');
  });
});
