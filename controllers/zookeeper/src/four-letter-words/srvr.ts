// Parser for `srvr`: the server's role, last zxid, latency and connection counters.
import { parseZxid, type Zxid } from '../zxid.js';
import { FourLetterWordParseError } from './errors.js';
import { readFields } from './lines.js';

export const SERVER_MODES = ['leader', 'follower', 'observer', 'standalone', 'read-only'] as const;
export type ServerMode = (typeof SERVER_MODES)[number];

export interface SrvrAnswer {
  version: string;
  latency: { min: number; avg: number; max: number };
  received: number;
  sent: number;
  connections: number;
  outstanding: number;
  zxid: Zxid;
  mode: ServerMode;
  nodeCount: number;
}

export function parseSrvr(text: string): SrvrAnswer {
  const { required: field, number: count } = readFields('srvr', text, ': ');
  return {
    version: field('Zookeeper version'),
    latency: parseLatency(field('Latency min/avg/max'), text),
    received: count('Received'),
    sent: count('Sent'),
    connections: count('Connections'),
    outstanding: count('Outstanding'),
    zxid: parseZxid(field('Zxid')),
    mode: parseServerMode('srvr', 'Mode', field('Mode'), text),
    nodeCount: count('Node count'),
  };
}

/** Reads a role as srvr's `Mode` and mntr's `zk_server_state` print it. */
export function parseServerMode(word: string, key: string, value: string, text: string): ServerMode {
  const mode = SERVER_MODES.find((candidate) => candidate === value);
  if (mode === undefined) {
    throw new FourLetterWordParseError(word, `unknown ${key} "${value}"`, text);
  }
  return mode;
}

function parseLatency(value: string, text: string): SrvrAnswer['latency'] {
  const parts = value.split('/').map(Number);
  const [min, avg, max] = parts;
  if (parts.length !== 3 || min === undefined || avg === undefined || max === undefined || parts.some(Number.isNaN)) {
    throw new FourLetterWordParseError('srvr', `bad latency "${value}"`, text);
  }
  return { min, avg, max };
}
