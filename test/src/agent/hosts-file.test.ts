// The pods' hosts file: every DNS form of each pod name.
import { describe, expect, it } from 'vitest';
import { renderHostsFile } from './hosts-file.js';

describe('the hosts file', () => {
  it('lists localhost and every DNS name of each pod with hostname and subdomain', () => {
    const content = renderHostsFile([
      { namespace: 'b', hostname: 'zk-1', subdomain: 'zk-hs', ip: '127.64.0.2' },
      { namespace: 'a', hostname: 'zk-0', subdomain: 'zk-hs', ip: '127.64.0.1' },
    ]);
    expect(content).toBe(
      [
        '127.0.0.1 localhost',
        '::1 localhost',
        '127.64.0.1 zk-0.zk-hs.a.svc.cluster.local zk-0.zk-hs.a.svc zk-0.zk-hs.a zk-0.zk-hs',
        '127.64.0.2 zk-1.zk-hs.b.svc.cluster.local zk-1.zk-hs.b.svc zk-1.zk-hs.b zk-1.zk-hs',
        '',
      ].join('\n'),
    );
  });
});
