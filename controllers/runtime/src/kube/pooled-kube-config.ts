// A KubeConfig whose requests share one connection pool and one authentication: what every client of the API server
// here is built from.
import type { RequestOptions as HttpsRequestOptions } from 'node:https';
import { HttpMethod, KubeConfig, RequestContext } from '@kubernetes/client-node';
import { Agent } from 'undici';

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
 * one authentication serves every request of a context for AUTHENTICATION_TTL_MS, and one pool serves it for its
 * life, typed clients (makeApiClient) and KubeClient alike; a watch holds one of its connections while it lasts. The
 * TLS settings come from the kubeconfig and do not change for its life (client-go reads them once too).
 *
 * The pool speaks HTTP/1.1, not HTTP/2 as undici would by default: its HTTP/2 client costs more CPU per request, and
 * each watch on its own connection cannot stall the others. `npm run bench:client` against the bed's apiserver
 * (2026-12-01, medians of four rounds after a first): 216 and 140 µs of CPU a create and a read here, 295 and 197 on
 * HTTP/2, 233 and 156 when each request is authenticated anew.
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
    const cluster = this.getCurrentCluster();
    const probe = new RequestContext(cluster?.server ?? '', HttpMethod.GET);
    await super.applySecurityAuthentication(probe);
    return { headers: probe.getHeaders(), pool: pool ?? (await this.http1Pool(probe.getDispatcher())), until: Date.now() + AUTHENTICATION_TTL_MS };
  }

  /** An HTTP/1.1 pool with the kubeconfig's TLS settings; client-node's own dispatcher through a proxy. */
  private async http1Pool(clientNodes: Dispatcher): Promise<Dispatcher> {
    const cluster = this.getCurrentCluster();
    if (cluster === null || !cluster.server.startsWith('https:')) return clientNodes;
    const tls: HttpsRequestOptions = {};
    await this.applyToHTTPSOptions(tls);
    const { ca, cert, key, pfx, passphrase, rejectUnauthorized, servername } = tls;
    const options = this.createDispatcherOptions(cluster, { ca, cert, key, pfx, passphrase, rejectUnauthorized, servername });
    if (options.type === 'agent') return new Agent({ allowH2: false, connect: options.connect });
    if (options.type === 'none') return new Agent({ allowH2: false });
    return clientNodes;
  }
}
