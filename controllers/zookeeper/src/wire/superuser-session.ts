// A wire session authenticated as the digest superuser, on the first member that opens one: what both the TLS admin
// verbs and the tenant verbs start from.
import { ZooKeeperConnectionError } from '../admin/errors.js';
import { superCredential } from '../admin/super-digest.js';
import { bodies, OP_CODES } from './packets.js';
import { WireSession, type WireEndpoint, type WireSessionOptions } from './wire-session.js';

/** Tries the members in turn; the first that opens a session and accepts the superuser's credential serves. */
export async function openSuperuserSession(endpoints: readonly WireEndpoint[], superPassword: string, options: WireSessionOptions): Promise<WireSession> {
  const failures: string[] = [];
  for (const endpoint of endpoints) {
    let session: WireSession | undefined;
    try {
      session = await WireSession.open(endpoint, options);
      await session.call('addAuth', OP_CODES.auth, bodies.auth('digest', superCredential(superPassword)));
      return session;
    } catch (error) {
      session?.close();
      if (!(error instanceof ZooKeeperConnectionError)) throw error;
      failures.push(error.message);
    }
  }
  const connectString = endpoints.map((endpoint) => `${endpoint.host}:${String(endpoint.port)}`).join(',');
  const over = options.ca === undefined ? '' : ' over TLS';
  throw new ZooKeeperConnectionError(`no member opened a session${over} (${failures.join('; ')})`, { operation: 'connect', connectString });
}
