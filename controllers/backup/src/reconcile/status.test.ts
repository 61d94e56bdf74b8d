// The backup's status from what a reconcile concluded: a run is recorded newest first with the last success kept, a
// failed run says why in Ready, and while no run is due Ready keeps what the last run said.
import { describe, expect, it } from 'vitest';
import type { BackupRun, ZookeeperBackupStatus } from '@zk-oam/apis';
import { RunFailure } from './errors.js';
import { nextStatus } from './status.js';

const now = new Date('2026-11-29T03:00:05Z');
const context = { generation: 2, now };
const run = (id: string, outcome: BackupRun['outcome']): BackupRun => ({
  id,
  startedAt: '2026-11-29T03:00:00.000Z',
  finishedAt: '2026-11-29T03:00:04.000Z',
  outcome,
  trigger: 'Schedule',
  ...(outcome === 'Succeeded' ? { location: `s3://b/ns/zk/${id}/`, zxid: '0x10000002a', znodes: 12, sizeBytes: 900 } : { message: 'Upload: refused' }),
});
const ran = (outcome: BackupRun, failure?: RunFailure) => ({
  kind: 'Ran' as const,
  outcome: { run: outcome, failure, deleted: [], retentionError: undefined },
  observedRunTrigger: undefined,
  nextRunAt: new Date('2026-11-29T04:00:00Z'),
});

describe('nextStatus', () => {
  it('records a successful run, the last success and the next run, Ready True', () => {
    const next = nextStatus(undefined, ran(run('r1', 'Succeeded')), context);
    expect(next).toMatchObject({ observedGeneration: 2, runs: [{ id: 'r1' }], lastSuccessful: { id: 'r1' }, nextRunAt: '2026-11-29T04:00:00Z' });
    expect(next.conditions).toMatchObject([{ type: 'Ready', status: 'True', reason: 'Available', message: 'backup r1: 12 znodes as of zxid 0x10000002a, 900 bytes at s3://b/ns/zk/r1/' }]);
  });

  it('keeps the last success through a failed run, whose reason Ready says', () => {
    const succeeded = nextStatus(undefined, ran(run('r1', 'Succeeded')), context);
    const failure = new RunFailure('Upload', 'TargetUnavailable', { cause: new Error('PutObject refused') });
    const next = nextStatus(succeeded, ran(run('r2', 'Failed'), failure), context);
    expect(next.runs?.map((entry) => entry.id)).toEqual(['r2', 'r1']);
    expect(next.lastSuccessful?.id).toBe('r1');
    expect(next.conditions).toMatchObject([{ type: 'Ready', status: 'False', reason: 'TargetUnavailable', message: 'backup r2 failed: Upload: PutObject refused' }]);
  });

  it('keeps what the last run said while no run is due, and says Suspended when suspended', () => {
    const failed: ZookeeperBackupStatus = nextStatus(undefined, ran(run('r2', 'Failed'), new RunFailure('Dump', 'ConcurrentChanges', { cause: new Error('x') })), context);
    const idle = nextStatus(failed, { kind: 'Idle', reason: 'Scheduled', nextRunAt: new Date('2026-11-29T05:00:00Z') }, context);
    expect(idle.conditions).toEqual(failed.conditions);
    expect(idle.nextRunAt).toBe('2026-11-29T05:00:00Z');
    const suspended = nextStatus(failed, { kind: 'Idle', reason: 'Suspended', nextRunAt: undefined }, context);
    expect(suspended.conditions).toMatchObject([{ status: 'False', reason: 'Suspended' }]);
    expect(suspended.nextRunAt).toBeUndefined();
  });

  it('says a first run is scheduled before any has run', () => {
    const next = nextStatus(undefined, { kind: 'Idle', reason: 'Scheduled', nextRunAt: new Date('2026-11-29T04:00:00Z') }, context);
    expect(next.conditions).toMatchObject([{ type: 'Ready', status: 'False', reason: 'Scheduled' }]);
  });

  it('says a spec that does not validate in Ready, and keeps the rest of the status and the generation it spoke of', () => {
    const succeeded = nextStatus(undefined, ran(run('r1', 'Succeeded')), context);
    const next = nextStatus(succeeded, { kind: 'Invalid', message: 'spec.schedule: not a cron expression' }, { generation: 3, now });
    const { conditions, ...rest } = next;
    const { conditions: _before, ...restBefore } = succeeded;
    expect(rest).toEqual(restBefore);
    expect(rest.observedGeneration).toBe(2);
    expect(conditions).toEqual([{ type: 'Ready', status: 'False', reason: 'InvalidSpec', message: 'spec.schedule: not a cron expression', observedGeneration: 3, lastTransitionTime: '2026-11-29T03:00:05Z' }]);
  });
});
