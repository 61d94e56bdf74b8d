// A KubeConfig whose requests share one connection pool and one authentication: what every client of the API server
// here is built from.
import type { RequestOptions as HttpsRequestOptions } from 'node:https';
import { HttpMethod, KubeConfig, RequestContext } from '@kubernetes/client-node';
import { Agent } from 'undici';

type Dispatcher = Parameters<RequestContext['setDispatcher']>[0];

/**
 * How long one authentication's headers serve later requests. client-node reads a token file again once a minute, and
 * client-go the same; a few seconds more is far within a projected token's renewal margin (kubelet renews at 80% of
 * an hour).
 */
export const AUTHENTICATION_TTL_MS = 10_000;

/**
 * The most HTTP/1.1 connections requests open at once: more than a burst keeps in flight (four reconciles at a time
 * per controller, each applying up to five children together), so requests do not queue behind each other, and a
 * bound on what a runaway could open. Idle connections close after a few seconds (undici's keep-alive timeout).
 */
export const REQUEST_CONNECTIONS = 32;

/** A watch asks with `watch=true` (KubeClient and client-node's Watch alike); every other request ends with its answer. */
const WATCH_QUERY = /[?&]watch=(?:true|1)(?:&|$)/;

interface Pools {
  /** HTTP/2 where the apiserver offers it: one connection carries every watch. */
  readonly watches: Dispatcher;
  /** HTTP/1.1, at most REQUEST_CONNECTIONS connections. */
  readonly requests: Dispatcher;
}

interface Authentication {
  readonly headers: Readonly<Record<string, string>>;
  /** Undefined for plain http: fetch's global dispatcher pools those already. */
  readonly pools: Pools | undefined;
  readonly until: number;
}

/**
 * client-node authenticates each request anew: it reads the CA, certificate and key files again, asks the token's
 * provider, and makes a new undici Agent, so each request would open (and leave behind) its own TLS connection. Here
 * one authentication serves every request of a context for AUTHENTICATION_TTL_MS, and two pools serve it for its
 * life, typed clients (makeApiClient) and KubeClient alike. The TLS settings come from the kubeconfig and do not change
 * for its life (client-go reads them once too).
 *
 * Watches and requests take different pools because each protocol is cheap at one of them. Watches share client-node's
 * first Agent, which speaks HTTP/2 where the apiserver offers it (undici's default): one connection carries them all,
 * where HTTP/1.1 would hold a TLS connection per watch (an idle manager of six controllers held 98.8 MiB on HTTP/1.1
 * against 80.1, `npm run bench:floor`, 2026-12-01). Requests go over HTTP/1.1, which costs less CPU each:
 * `npm run bench:client` (the same day, medians of four rounds after a first, authentication kept) measured 295 and
 * 197 µs a create and a read on HTTP/2, 216 and 140 on HTTP/1.1.
 */
export class PooledKubeConfig extends KubeConfig {
  private readonly authentications = new Map<string, Authentication>();
  private readonly authenticating = new Map<string, Promise<Authentication>>();

  override async applySecurityAuthentication(context: RequestContext): Promise<void> {
    const { headers, pools } = await this.authentication();
    for (const [name, value] of Object.entries(headers)) context.setHeaderParam(name, value);
    if (pools !== undefined) context.setDispatcher(WATCH_QUERY.test(context.getUrl()) ? pools.watches : pools.requests);
  }

  /** The context's authentication while fresh, else a new one, asked once however many requests wait for it. */
  private async authentication(): Promise<Authentication> {
    const key = JSON.stringify([this.currentContext, this.getCurrentCluster()?.server, this.getCurrentUser()?.name]);
    const known = this.authentications.get(key);
    if (known !== undefined && Date.now() < known.until) return known;
    let asked = this.authenticating.get(key);
    if (asked === undefined) {
      // A failed one (a token provider that failed) is asked again by the next request.
      asked = this.authenticate(known?.pools).finally(() => this.authenticating.delete(key));
      this.authenticating.set(key, asked);
    }
    const authentication = await asked;
    this.authentications.set(key, authentication);
    return authentication;
  }

  private async authenticate(pools: Pools | undefined): Promise<Authentication> {
    const probe = new RequestContext(this.getCurrentCluster()?.server ?? '', HttpMethod.GET);
    await super.applySecurityAuthentication(probe);
    return { headers: probe.getHeaders(), pools: pools ?? (await this.poolsFrom(probe.getDispatcher())), until: Date.now() + AUTHENTICATION_TTL_MS };
  }

  /** The watches' pool is client-node's Agent; the requests' one is made with its TLS settings. Through a proxy, its own for both. */
  private async poolsFrom(clientNodes: Dispatcher | undefined): Promise<Pools | undefined> {
    const cluster = this.getCurrentCluster();
    if (clientNodes === undefined || cluster === null) return undefined;
    const tls: HttpsRequestOptions = {};
    await this.applyToHTTPSOptions(tls);
    const { ca, cert, key, pfx, passphrase, rejectUnauthorized, servername } = tls;
    const options = this.createDispatcherOptions(cluster, { ca, cert, key, pfx, passphrase, rejectUnauthorized, servername });
    if (options.type !== 'agent') return { watches: clientNodes, requests: clientNodes };
    return { watches: clientNodes, requests: new Agent({ allowH2: false, connections: REQUEST_CONNECTIONS, connect: options.connect }) };
  }
}
