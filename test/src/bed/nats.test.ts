// The rendered nats.conf: loopback only, JetStream with bounded stores, password auth.
import { describe, expect, it } from 'vitest';
import { renderNatsConfig } from './nats.js';

describe('renderNatsConfig', () => {
  it('binds client and monitoring ports on 127.0.0.1 and requires the generated user', () => {
    expect(
      renderNatsConfig({ port: 4222, monitorPort: 8222, storeDir: '/bed/nats/jetstream', user: 'zkoam', password: 'pw' }),
    ).toBe(
      [
        'listen: "127.0.0.1:4222"',
        'http: "127.0.0.1:8222"',
        'server_name: zkoam_bed',
        'jetstream {',
        '  store_dir: "/bed/nats/jetstream"',
        '  max_memory_store: 64MB',
        '  max_file_store: 512MB',
        '}',
        'authorization {',
        '  users = [',
        '    { user: "zkoam", password: "pw" }',
        '  ]',
        '}',
        '',
      ].join('\n'),
    );
  });
});
