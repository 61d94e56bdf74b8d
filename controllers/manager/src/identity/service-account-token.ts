// A ServiceAccount's token kept in a file, as kubelet keeps a projected one: asked for by TokenRequest, written whole (a
// rename, so a reader never sees half a token), asked for again at 80% of its lifetime and after a refusal with backoff.
// A KubeConfig whose user has this file as its tokenFile reads it again every minute (client-node's FileAuth), so a
// renewed token reaches the controller that acts with it without restarting anything.
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { backoffDelayMs, pause, type BackoffPolicy, type KubeClient, type Logger } from '@zk-oam/runtime';
import { z } from 'zod';

/** An hour, kubelet's default for a projected token; the apiserver refuses less than ten minutes. */
export const TOKEN_LIFETIME_SECONDS = 3_600;
/** Kubelet's share of the lifetime after which it renews: twelve minutes to spare against client-node's one-minute re-read. */
const RENEW_AT_SHARE = 0.8;
const RETRY: BackoffPolicy = { baseMs: 1_000, maxMs: 60_000, jitter: 0.2 };

const tokenRequestSchema = z.object({
  status: z.object({ token: z.string().min(1), expirationTimestamp: z.string().refine((time) => !Number.isNaN(Date.parse(time))) }),
});

export interface ServiceAccountRef {
  readonly namespace: string;
  readonly name: string;
}

export interface ServiceAccountTokenOptions {
  /** Acting as someone allowed `create` on `serviceaccounts/token` for this account. */
  readonly client: Pick<KubeClient, 'request'>;
  readonly account: ServiceAccountRef;
  readonly file: string;
  readonly log: Logger;
  /** Renewals stop when it aborts. */
  readonly signal: AbortSignal;
}

export class ServiceAccountTokenFile {
  private renewAt: number | undefined;
  private keeping: Promise<void> | undefined;

  constructor(private readonly options: ServiceAccountTokenOptions) {}

  /**
   * Writes a token unless the file holds one not yet due for renewal, then keeps it fresh until the signal aborts.
   * Throws when the apiserver refuses the first one (no such ServiceAccount, no RBAC to ask for it).
   */
  async ready(): Promise<void> {
    if (this.renewAt === undefined || Date.now() >= this.renewAt) await this.renew();
    this.keeping ??= this.keepFresh();
  }

  private async renew(): Promise<void> {
    const { client, account, file } = this.options;
    const askedAt = Date.now();
    const body = { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: { expirationSeconds: TOKEN_LIFETIME_SECONDS } };
    const path = `/api/v1/namespaces/${account.namespace}/serviceaccounts/${account.name}/token`;
    const { status } = tokenRequestSchema.parse(await client.request('POST', path, { body }));
    await mkdir(dirname(file), { recursive: true, mode: 0o700 });
    await writeFile(`${file}.new`, status.token, { mode: 0o600 });
    await rename(`${file}.new`, file);
    this.renewAt = askedAt + (Date.parse(status.expirationTimestamp) - askedAt) * RENEW_AT_SHARE;
  }

  private async keepFresh(): Promise<void> {
    const { signal, log, account } = this.options;
    let failures = 0;
    while (!signal.aborted) {
      await pause(failures === 0 ? Math.max(0, (this.renewAt ?? 0) - Date.now()) : backoffDelayMs(failures - 1, RETRY), signal);
      if (signal.aborted) return;
      try {
        await this.renew();
        failures = 0;
      } catch (error) {
        failures += 1;
        // The token in the file still serves until it expires: twenty percent of its lifetime to get another.
        log.error({ err: error, serviceAccount: `${account.namespace}/${account.name}`, failures }, 'renewing a controller ServiceAccount token failed');
      }
    }
  }
}
