// A whole dynamic config (membership lines plus `version=<hex>`): parse and format with a stable order.
import { parseZxid, type Zxid } from '../zxid.js';
import { DynamicConfigParseError, formatServerLine, parseServerLine, type ServerEntry } from './server-line.js';

export interface DynamicConfig {
  /** Sorted by id. */
  servers: ServerEntry[];
  /** The zxid that committed this config; absent in a hand-written initial file. */
  version: Zxid | undefined;
}

/** Reads membership lines and `version=`, ignoring every other key (as `conf` mixes them in). */
export function parseDynamicConfig(text: string): DynamicConfig {
  const servers: ServerEntry[] = [];
  let version: Zxid | undefined;
  for (const rawLine of text.split(/\r?\n/)) {
    const line = rawLine.trim();
    if (line === '' || line.startsWith('#')) {
      continue;
    }
    if (line.startsWith('version=')) {
      version = parseZxid(line.slice('version='.length));
      continue;
    }
    const entry = parseServerLine(line);
    if (entry === undefined) {
      continue;
    }
    if (servers.some((known) => known.id === entry.id)) {
      throw new DynamicConfigParseError(line, `server.${entry.id} appears twice`);
    }
    servers.push(entry);
  }
  return { servers: sortServers(servers), version };
}

/** Formats servers by id, then `version=` (hex without 0x, as ZooKeeper writes it) when known. */
export function formatDynamicConfig(config: DynamicConfig): string {
  const lines = sortServers(config.servers).map(formatServerLine);
  if (config.version !== undefined) {
    lines.push(`version=${config.version.value.toString(16)}`);
  }
  return `${lines.join('\n')}\n`;
}

export function sortServers(servers: readonly ServerEntry[]): ServerEntry[] {
  return [...servers].sort((a, b) => a.id - b.id);
}

export function voters(config: DynamicConfig): ServerEntry[] {
  return config.servers.filter((server) => server.role === 'participant');
}
