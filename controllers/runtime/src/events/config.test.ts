// Pure parts of the event bus: client options, stream and consumer configs, where a follower starts, retry pacing.
import { describe, expect, it } from 'vitest';
import { natsClientOptions } from './connection.js';
import { orderedConsumerOptions } from './follow.js';
import { consumerConfig, streamConfig } from './stream.js';

const consumer = { durable: 'scale', deliverPolicy: 'new', maxDeliver: 5, ackWaitMs: 30_000 } as const;

describe('natsClientOptions', () => {
  it('reconnects forever and passes credentials and TLS files through', () => {
    expect(
      natsClientOptions({
        servers: 'nats://127.0.0.1:4222, nats://127.0.0.2:4222',
        name: 'zk-scale',
        user: 'zkoam',
        password: 'secret',
        tls: { caFile: '/tls/ca.crt' },
      }),
    ).toEqual({
      servers: ['nats://127.0.0.1:4222', 'nats://127.0.0.2:4222'],
      name: 'zk-scale',
      user: 'zkoam',
      pass: 'secret',
      tls: { caFile: '/tls/ca.crt' },
      maxReconnectAttempts: -1,
      reconnectTimeWait: 1_000,
      timeout: 5_000,
    });
  });

  it('sends no credentials when no user is configured', () => {
    expect(natsClientOptions({ servers: 'nats://127.0.0.1:4222', name: 'zk' })).not.toHaveProperty('user');
  });
});

describe('streamConfig', () => {
  it('converts milliseconds to the nanoseconds JetStream expects', () => {
    expect(streamConfig({ name: 'ZKOAM_EVENTS', subjects: ['zk.>'], maxAgeMs: 3_600_000, duplicateWindowMs: 120_000 })).toMatchObject({
      name: 'ZKOAM_EVENTS',
      subjects: ['zk.>'],
      storage: 'file',
      max_age: 3_600_000_000_000,
      duplicate_window: 120_000_000_000,
    });
  });
});

describe('consumerConfig', () => {
  it('uses the single filter subject every server understands for one subject', () => {
    const config = consumerConfig({ ...consumer, filterSubjects: ['zk.>'] });
    expect(config).toMatchObject({ durable_name: 'scale', ack_policy: 'explicit', deliver_policy: 'new', filter_subject: 'zk.>' });
    expect(config).not.toHaveProperty('filter_subjects');
  });

  it('uses filter_subjects for several subjects', () => {
    const config = consumerConfig({ ...consumer, deliverPolicy: 'all', filterSubjects: ['zk.a.>', 'zk.b.>'] });
    expect(config).toMatchObject({ deliver_policy: 'all', filter_subjects: ['zk.a.>', 'zk.b.>'] });
    expect(config).not.toHaveProperty('filter_subject');
  });
});

describe('orderedConsumerOptions (following events)', () => {
  const filterSubject = 'zk.kafka.zk.*';

  it('starts at the time asked for, or at the end of the stream when none is', () => {
    expect(orderedConsumerOptions({ filterSubject, since: new Date('2026-11-25T17:00:00Z') })).toEqual({
      filter_subjects: filterSubject,
      deliver_policy: 'by_start_time',
      opt_start_time: '2026-11-25T17:00:00.000Z',
    });
    expect(orderedConsumerOptions({ filterSubject })).toEqual({ filter_subjects: filterSubject, deliver_policy: 'new' });
  });

  it('resumes right after the last event seen, so a new round neither repeats nor skips one', () => {
    const since = new Date('2026-11-25T17:00:00Z');
    expect(orderedConsumerOptions({ filterSubject, since }, 41)).toEqual({ filter_subjects: filterSubject, deliver_policy: 'by_start_sequence', opt_start_seq: 42 });
    expect(orderedConsumerOptions({ filterSubject }, 41)).toMatchObject({ deliver_policy: 'by_start_sequence', opt_start_seq: 42 });
  });
});
