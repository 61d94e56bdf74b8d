// Dynamic config lines: parse, format, stable order, documented variants, malformed input.
import { describe, expect, it } from 'vitest';
import { formatDynamicConfig, parseDynamicConfig, voters } from './config.js';
import { DynamicConfigParseError, formatServerLine, parseServerLine } from './server-line.js';

// As ZooKeeper 3.8 returns /zookeeper/config after a reconfig added member 4 (captured from a real ensemble).
const COMMITTED = [
  'server.1=127.0.1.1:2888:3888:participant;127.0.1.1:2181',
  'server.2=127.0.1.2:2888:3888:participant;127.0.1.2:2181',
  'server.3=127.0.1.3:2888:3888:participant;127.0.1.3:2181',
  'server.4=127.0.1.4:2888:3888:participant;127.0.1.4:2181',
  'version=100000007',
  '',
].join('\n');

describe('parseDynamicConfig / formatDynamicConfig', () => {
  it('round-trips a committed config byte for byte', () => {
    expect(formatDynamicConfig(parseDynamicConfig(COMMITTED))).toBe(COMMITTED);
  });

  it('orders servers by id whatever the input order', () => {
    const shuffled = COMMITTED.split('\n').reverse().join('\n');
    expect(formatDynamicConfig(parseDynamicConfig(shuffled))).toBe(COMMITTED);
  });

  it('reads the version as a zxid', () => {
    expect(parseDynamicConfig(COMMITTED).version).toEqual({ value: 0x1_0000_0007n, epoch: 1, counter: 7 });
  });

  it('leaves out the version line of a hand-written initial file', () => {
    const initial = 'server.2=10.0.0.2:2888:3888;2181\nserver.1=10.0.0.1:2888:3888;2181\n';
    expect(formatDynamicConfig(parseDynamicConfig(initial))).toBe(
      'server.1=10.0.0.1:2888:3888:participant;2181\nserver.2=10.0.0.2:2888:3888:participant;2181\n',
    );
  });

  it('counts only participants as voters', () => {
    const config = parseDynamicConfig(`${COMMITTED}server.5=127.0.1.5:2888:3888:observer;127.0.1.5:2181\n`);
    expect(voters(config).map((server) => server.id)).toEqual([1, 2, 3, 4]);
  });

  it('refuses a config that names the same server twice', () => {
    expect(() => parseDynamicConfig(`${COMMITTED}server.2=127.0.1.9:2888:3888;2181\n`)).toThrow(/appears twice/);
  });
});

describe('parseServerLine', () => {
  it.each([
    ['server.5=125.23.63.23:1234:1235;1236', { host: '125.23.63.23', role: 'participant', clientAddress: undefined, clientPort: 1236 }],
    ['server.5=125.23.63.23:1234:1235:observer;1236', { role: 'observer', clientPort: 1236 }],
    ['server.5=125.23.63.23:1234:1235;125.23.63.24:1236', { clientAddress: '125.23.63.24', clientPort: 1236 }],
    ['server.5 = 125.23.63.23:1234:1235:participant;0.0.0.0:1236', { id: 5, quorumPort: 1234, electionPort: 1235 }],
  ])('reads %s (ZooKeeper documentation examples)', (line, expected) => {
    expect(parseServerLine(line)).toMatchObject(expected);
  });

  it('reads a member without a plain client port, as a TLS-only ensemble prints it, and writes it back the same', () => {
    const line = 'server.1=zk-0.zk-headless.ns.svc.cluster.local:2888:3888:participant';
    expect(parseServerLine(line)).toMatchObject({ id: 1, clientAddress: undefined, clientPort: undefined });
    const entry = parseServerLine(line);
    expect(entry === undefined ? undefined : formatServerLine(entry)).toBe(line);
  });

  it('ignores keys that are not server lines', () => {
    expect(parseServerLine('clientPort=2181')).toBeUndefined();
  });

  it.each([
    'server.1=127.0.1.1:2888;2181',
    'server.1=127.0.1.1:2888:3888;2181;2182',
    'server.1=127.0.1.1:2888:3888:voter;2181',
    'server.1=127.0.1.1:2888:99999;2181',
  ])('rejects the malformed line %s', (line) => {
    expect(() => parseServerLine(line)).toThrow(DynamicConfigParseError);
  });
});
