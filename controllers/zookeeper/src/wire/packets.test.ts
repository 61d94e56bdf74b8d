// The client protocol's packets byte for byte, as ZooKeeper's jute classes lay them out, and framing across chunks.
import { describe, expect, it } from 'vitest';
import { FrameSplitter, JuteReader, JuteWriter, TruncatedPacketError } from './jute.js';
import { bodies, connectRequest, OP_CODES, parseConnectResponse, readReplyHeader, readStat, requestPacket } from './packets.js';

describe('the client protocol packets', () => {
  it('frames a new-session request: protocol 0, no zxid, the timeout, no session, 16 zero bytes of password, not read-only', () => {
    const packet = connectRequest(10_000);
    expect(packet.readInt32BE(0)).toBe(45);
    const reader = new JuteReader(packet.subarray(4));
    expect([reader.int(), reader.long(), reader.int(), reader.long()]).toEqual([0, 0n, 10_000, 0n]);
    expect(reader.buffer()).toEqual(Buffer.alloc(16));
    expect(reader.bool()).toBe(false);
    expect(reader.remaining).toBe(0);
  });

  it('writes a reconfig: header, joining, leaving, no new members (-1), the version it was planned from', () => {
    const packet = requestPacket(7, OP_CODES.reconfig, bodies.reconfig('server.4=h:2888:3888:participant;2181', undefined, 0x100000003n));
    const reader = new JuteReader(packet.subarray(4));
    expect([reader.int(), reader.int()]).toEqual([7, 16]);
    expect(reader.string()).toBe('server.4=h:2888:3888:participant;2181');
    expect([reader.string(), reader.string(), reader.long()]).toEqual([undefined, undefined, 0x100000003n]);
    expect(reader.remaining).toBe(0);
  });

  it('writes the superuser auth packet under xid -4 and a create with the open ACL', () => {
    const auth = new JuteReader(requestPacket(-4, OP_CODES.auth, bodies.auth('digest', 'super:pw')).subarray(4));
    expect([auth.int(), auth.int(), auth.int(), auth.string(), auth.string()]).toEqual([-4, 100, 0, 'digest', 'super:pw']);
    const create = new JuteReader(requestPacket(1, OP_CODES.create, bodies.create('/c', '')).subarray(4));
    expect([create.int(), create.int(), create.string(), create.buffer()]).toEqual([1, 1, '/c', Buffer.alloc(0)]);
    expect([create.int(), create.int(), create.string(), create.string(), create.int()]).toEqual([1, 31, 'world', 'anyone', 0]);
  });

  it('reads a reply header, a Stat and a connect response', () => {
    const stat = new JuteWriter().long(1n).long(0x200000005n).long(3n).long(4n).int(6).int(2).int(1).long(0n).int(10).int(3).long(0x200000007n);
    const reply = new JuteWriter().int(9).long(0x200000005n).int(-103);
    const replyReader = new JuteReader(reply.framed().subarray(4));
    expect(readReplyHeader(replyReader)).toEqual({ xid: 9, zxid: 0x200000005n, err: -103 });
    expect(readStat(new JuteReader(stat.framed().subarray(4)))).toEqual({
      czxid: 1n,
      mzxid: 0x200000005n,
      pzxid: 0x200000007n,
      version: 6,
      cversion: 2,
      aversion: 1,
      ephemeralOwner: 0n,
      numChildren: 3,
    });
    const connected = new JuteWriter().int(0).int(6_000).long(0x1234n).buffer(Buffer.alloc(16)).bool(false).framed();
    expect(parseConnectResponse(connected.subarray(4))).toEqual({ timeoutMs: 6_000, sessionId: 0x1234n });
  });

  it('splits packets however the stream cuts them', () => {
    const first = new JuteWriter().int(1).string('a').framed();
    const second = new JuteWriter().long(2n).framed();
    const stream = Buffer.concat([first, second]);
    const splitter = new FrameSplitter();
    const packets = [stream.subarray(0, 3), stream.subarray(3, 10), stream.subarray(10)].flatMap((chunk) => splitter.push(chunk));
    expect(packets).toEqual([first.subarray(4), second.subarray(4)]);
  });

  it('refuses to read past the end of a packet', () => {
    expect(() => new JuteReader(Buffer.from([0, 0, 0, 9, 1])).buffer()).toThrow(TruncatedPacketError);
  });
});
