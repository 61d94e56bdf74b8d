// The superuser admin verbs of a disruptive step (reconfig, confirm-by-write) on a TLS-only ensemble: the same
// EnsembleAdmin the npm binding gives on the plain port, over a TlsSession, authenticated with the superuser's digest.
import { checkReadBack, committedConfigOf, confirmToken } from '../admin/answers.js';
import { CONFIRM_ZNODE, type CommittedConfig, type ConfirmedWrite } from '../admin/client.js';
import { ZOO_CODES } from '../admin/codes.js';
import type { EnsembleAdmin } from '../admin/ensemble-admin.js';
import { ZooKeeperConnectionError } from '../admin/errors.js';
import { superCredential } from '../admin/super-digest.js';
import { formatJoining, formatLeaving, type ReconfigDelta } from '../dynamic-config/delta.js';
import type { Zxid } from '../zxid.js';
import { bodies, OP_CODES, readStat } from './packets.js';
import { TlsSession, type SecureEndpoint, type TlsSessionOptions } from './tls-session.js';

class TlsEnsembleAdmin implements EnsembleAdmin {
  constructor(private readonly session: TlsSession) {}

  async reconfig(delta: ReconfigDelta, fromVersion: Zxid): Promise<CommittedConfig> {
    const reply = await this.session.call('reconfig', OP_CODES.reconfig, bodies.reconfig(formatJoining(delta), formatLeaving(delta), fromVersion.value));
    return committedConfigOf(reply.body.buffer(), { operation: 'reconfig', connectString: this.session.address });
  }

  async confirmByWrite(): Promise<ConfirmedWrite> {
    const path = CONFIRM_ZNODE;
    await this.session.call('create', OP_CODES.create, bodies.create(path, ''), [ZOO_CODES.ZNODEEXISTS]);
    const token = confirmToken();
    const written = await this.session.call('confirm write', OP_CODES.setData, bodies.setData(path, token, -1));
    const { mzxid } = readStat(written.body);
    await this.session.call('sync', OP_CODES.sync, bodies.path(path));
    const read = await this.session.call('confirm read', OP_CODES.getData, bodies.getData(path));
    checkReadBack(read.body.buffer()?.toString('utf8') ?? '', token, this.session.address);
    return { path, zxid: mzxid };
  }

  close(): void {
    this.session.close();
  }
}

/** Tries the members in turn; the first that opens a session and accepts the superuser's credential serves the step. */
export async function connectTlsEnsembleAdmin(endpoints: readonly SecureEndpoint[], superPassword: string, options: TlsSessionOptions): Promise<EnsembleAdmin> {
  const failures: string[] = [];
  for (const endpoint of endpoints) {
    let session: TlsSession | undefined;
    try {
      session = await TlsSession.open(endpoint, options);
      await session.call('addAuth', OP_CODES.auth, bodies.auth('digest', superCredential(superPassword)));
      return new TlsEnsembleAdmin(session);
    } catch (error) {
      session?.close();
      if (!(error instanceof ZooKeeperConnectionError)) throw error;
      failures.push(error.message);
    }
  }
  const connectString = endpoints.map((endpoint) => `${endpoint.host}:${String(endpoint.port)}`).join(',');
  throw new ZooKeeperConnectionError(`no member opened a session over TLS (${failures.join('; ')})`, { operation: 'connect', connectString });
}
