// One membership line of ZooKeeper's dynamic config: `server.N=host:quorumPort:electionPort:role[;clientAddress:clientPort]`.
export type ServerRole = 'participant' | 'observer';

export interface ServerEntry {
  id: number;
  host: string;
  quorumPort: number;
  electionPort: number;
  role: ServerRole;
  /** Absent means ZooKeeper's default, all addresses. */
  clientAddress: string | undefined;
  /** Absent for a member without a plain client port (TLS only: its secure port is in the static zoo.cfg). */
  clientPort: number | undefined;
}

export class DynamicConfigParseError extends Error {
  override readonly name = 'DynamicConfigParseError';
  constructor(
    readonly line: string,
    reason: string,
  ) {
    super(`bad dynamic config line ${JSON.stringify(line)}: ${reason}`);
  }
}

const SERVER_KEY = /^server\.(\d+)$/;

/** Returns the entry for a `server.N=...` line, or undefined for any other key. */
export function parseServerLine(line: string): ServerEntry | undefined {
  const at = line.indexOf('=');
  if (at < 0) {
    return undefined;
  }
  const keyMatch = SERVER_KEY.exec(line.slice(0, at).trim());
  if (keyMatch === null || keyMatch[1] === undefined) {
    return undefined;
  }
  const id = Number(keyMatch[1]);
  const [serverPart, clientPart, ...rest] = line.slice(at + 1).trim().split(';');
  if (serverPart === undefined || rest.length > 0) {
    throw new DynamicConfigParseError(line, 'expected "<server part>[;<client part>]"');
  }
  const [host, quorumPort, electionPort, role = 'participant', ...extra] = serverPart.split(':');
  if (host === undefined || host === '' || quorumPort === undefined || electionPort === undefined || extra.length > 0) {
    throw new DynamicConfigParseError(line, 'expected "host:quorumPort:electionPort[:role]"');
  }
  if (role !== 'participant' && role !== 'observer') {
    throw new DynamicConfigParseError(line, `unknown role "${role}"`);
  }
  const client = clientPart === undefined ? { clientAddress: undefined, clientPort: undefined } : parseClientPart(line, clientPart);
  return {
    id,
    host,
    quorumPort: parsePort(line, quorumPort),
    electionPort: parsePort(line, electionPort),
    role,
    ...client,
  };
}

function parseClientPart(line: string, part: string): { clientAddress: string | undefined; clientPort: number } {
  const colon = part.lastIndexOf(':');
  if (colon < 0) {
    return { clientAddress: undefined, clientPort: parsePort(line, part) };
  }
  return { clientAddress: part.slice(0, colon), clientPort: parsePort(line, part.slice(colon + 1)) };
}

function parsePort(line: string, text: string): number {
  const port = Number(text);
  if (!/^\d+$/.test(text) || port < 1 || port > 65_535) {
    throw new DynamicConfigParseError(line, `bad port "${text}"`);
  }
  return port;
}

/** Formats an entry as ZooKeeper prints it (role always spelled out). */
export function formatServerLine(entry: ServerEntry): string {
  const server = `server.${entry.id}=${entry.host}:${entry.quorumPort}:${entry.electionPort}:${entry.role}`;
  if (entry.clientPort === undefined) return server;
  return `${server};${entry.clientAddress === undefined ? '' : `${entry.clientAddress}:`}${entry.clientPort}`;
}

export function sameServerEntry(a: ServerEntry, b: ServerEntry): boolean {
  return formatServerLine(a) === formatServerLine(b);
}
