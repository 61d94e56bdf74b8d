// The superuser admin verbs of a disruptive step (reconfig, confirm-by-write) on a TLS-only ensemble: the same
// EnsembleAdmin the npm binding gives on the plain port, over a WireSession on the secure port, authenticated with the superuser's digest.
import { checkReadBack, committedConfigOf, confirmToken } from '../admin/answers.js';
import { CONFIRM_ZNODE, type CommittedConfig, type ConfirmedWrite } from '../admin/client.js';
import { ZOO_CODES } from '../admin/codes.js';
import type { EnsembleAdmin } from '../admin/ensemble-admin.js';
import { formatJoining, formatLeaving, type ReconfigDelta } from '../dynamic-config/delta.js';
import type { Zxid } from '../zxid.js';
import { bodies, OP_CODES, readStat } from './packets.js';
import { openSuperuserSession } from './superuser-session.js';
import type { SecureEndpoint, WireSession, WireSessionOptions } from './wire-session.js';

class TlsEnsembleAdmin implements EnsembleAdmin {
  constructor(private readonly session: WireSession) {}

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

/** The first member that opens a session and accepts the superuser's credential serves the step. */
export async function connectTlsEnsembleAdmin(endpoints: readonly SecureEndpoint[], superPassword: string, options: WireSessionOptions & { readonly ca: string }): Promise<EnsembleAdmin> {
  return new TlsEnsembleAdmin(await openSuperuserSession(endpoints, superPassword, options));
}
