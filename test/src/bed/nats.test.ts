// The rendered nats.conf: clients on the address given, monitoring on loopback, JetStream with bounded stores, password auth.
import { describe, expect, it } from 'vitest';
import { renderNatsConfig } from './nats.js';

describe('renderNatsConfig', () => {
  it('binds the client port on the address given, monitoring on 127.0.0.1, and requires the generated user', () => {
    expect(
      renderNatsConfig({ host: '172.31.1.1', port: 4222, monitorPort: 8222, storeDir: '/bed/nats/jetstream', user: 'zkoam', password: 'pw' }),
    ).toBe(
      [
        'listen: "172.31.1.1:4222"',
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
