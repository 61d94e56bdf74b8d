// observeEnsemble never throws: pods without IP or without a listening member become observations that say why.
import { describe, expect, it } from 'vitest';
import { PodWithoutIpError } from './errors.js';
import { observeEnsemble } from './observe-ensemble.js';

describe('observeEnsemble', () => {
  it('records a pod without IP and an unreachable member, sorted by myid, and reads no config', async () => {
    const observation = await observeEnsemble(
      [
        { pod: 'zk-1', myid: 2, ip: '127.0.49.2' },
        { pod: 'zk-0', myid: 1, ip: undefined },
      ],
      // Port 1 on a loopback address: nothing listens, the connection is refused at once.
      { clientPort: 1, timeoutMs: 1_000, adminFactory: () => Promise.reject(new Error('must not be asked')) },
    );
    expect(observation.members.map((member) => [member.pod, member.myid, member.ip])).toEqual([
      ['zk-0', 1, undefined],
      ['zk-1', 2, '127.0.49.2'],
    ]);
    expect(observation.members[0]?.observation.error).toBeInstanceOf(PodWithoutIpError);
    expect(observation.members[1]?.observation.error?.message).toMatch(/^srvr on 127\.0\.49\.2:1: /);
    expect(observation.committed).toMatchObject({ ok: false });
  });
});
