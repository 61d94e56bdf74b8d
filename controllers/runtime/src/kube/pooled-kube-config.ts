// A KubeConfig whose requests share one connection pool and one authentication: what every client of the API server
// here is built from.
import { HttpMethod, KubeConfig, RequestContext } from '@kubernetes/client-node';

type Dispatcher = ReturnType<RequestContext['getDispatcher']>;

/**
 * How long one authentication's headers serve later requests. client-node reads a token file again once a minute, and
 * client-go the same; a few seconds more is far within a projected token's renewal margin (kubelet renews at 80% of
 * an hour).
 */
export const AUTHENTICATION_TTL_MS = 10_000;

interface Authentication {
  readonly headers: Readonly<Record<string, string>>;
  /** Undefined for plain http: fetch's global dispatcher pools those already. */
  readonly pool: Dispatcher;
  readonly until: number;
}

/**
 * client-node authenticates each request anew: it reads the CA, certificate and key files again, asks the token's
 * provider, and makes a new undici Agent, so each request would open (and leave behind) its own TLS connection. Here
 * one authentication serves every request of a context for AUTHENTICATION_TTL_MS, and the first Agent serves it for
 * its life, typed clients (makeApiClient) and KubeClient alike; a watch holds one of its streams while it lasts. The
 * TLS settings come from the kubeconfig and do not change for its life (client-go reads them once too).
 *
 * The Agent speaks HTTP/2 where the apiserver offers it (undici's default): one connection carries every watch and
 * request. HTTP/1.1 costs less CPU per request but a TLS connection per watch: an idle manager of six controllers held
 * 98.8 MiB against 80.1 (`npm run bench:floor`, 2026-12-01). `npm run bench:client` (the same day, medians of four
 * rounds after a first, authentication kept): 295 and 197 µs of CPU a create and a read on HTTP/2, 216 and 140 on
 * HTTP/1.1, where authenticating each request anew cost 233 and 156.
 */
export class PooledKubeConfig extends KubeConfig {
  private readonly authentications = new Map<string, Authentication>();
  private readonly authenticating = new Map<string, Promise<Authentication>>();

  override async applySecurityAuthentication(context: RequestContext): Promise<void> {
    const { headers, pool } = await this.authentication();
    for (const [name, value] of Object.entries(headers)) context.setHeaderParam(name, value);
    if (pool !== undefined) context.setDispatcher(pool);
  }

  /** The context's authentication while fresh, else a new one, asked once however many requests wait for it. */
  private async authentication(): Promise<Authentication> {
    const key = JSON.stringify([this.currentContext, this.getCurrentCluster()?.server, this.getCurrentUser()?.name]);
    const known = this.authentications.get(key);
    if (known !== undefined && Date.now() < known.until) return known;
    let asked = this.authenticating.get(key);
    if (asked === undefined) {
      // A failed one (a token provider that failed) is asked again by the next request.
      asked = this.authenticate(known?.pool).finally(() => this.authenticating.delete(key));
      this.authenticating.set(key, asked);
    }
    const authentication = await asked;
    this.authentications.set(key, authentication);
    return authentication;
  }

  private async authenticate(pool: Dispatcher): Promise<Authentication> {
    const probe = new RequestContext(this.getCurrentCluster()?.server ?? '', HttpMethod.GET);
    await super.applySecurityAuthentication(probe);
    return { headers: probe.getHeaders(), pool: pool ?? probe.getDispatcher(), until: Date.now() + AUTHENTICATION_TTL_MS };
  }
}
