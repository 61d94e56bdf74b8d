// Parser for `conf`: the server's effective configuration as key=value lines, membership included.
import { parseDynamicConfig, type DynamicConfig } from '../dynamic-config/config.js';
import { splitKeyValueLines } from './lines.js';

export interface ConfAnswer {
  values: ReadonlyMap<string, string>;
  /** The `server.N=` lines and `version=` the server currently runs with (not necessarily committed everywhere). */
  membership: DynamicConfig;
  serverId: number | undefined;
}

export function parseConf(text: string): ConfAnswer {
  const values = splitKeyValueLines(text, '=');
  const serverId = values.get('serverId');
  return {
    values,
    membership: parseDynamicConfig(text),
    serverId: serverId === undefined ? undefined : Number(serverId),
  };
}
