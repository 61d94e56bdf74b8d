// A KubeConfig whose requests share one connection pool: what every client of the API server here is built from.
import { KubeConfig, type RequestContext } from '@kubernetes/client-node';

type Dispatcher = ReturnType<RequestContext['getDispatcher']>;

/**
 * client-node makes a new undici Agent for each request it authenticates, so each request would open (and leave behind)
 * its own TLS connection: at a few hundred requests a second that is a TLS handshake per request on both sides and
 * hundreds of idle sockets. Here the first request of a context makes the pool and every later one shares it, typed
 * clients (makeApiClient) and KubeClient alike; a watch holds one of its connections while it lasts. The TLS settings
 * come from the kubeconfig and do not change for its life (client-go reads them once too); credentials are headers,
 * set per request.
 */
export class PooledKubeConfig extends KubeConfig {
  private readonly pools = new Map<string, Dispatcher>();

  override async applySecurityAuthentication(context: RequestContext): Promise<void> {
    await super.applySecurityAuthentication(context);
    const key = JSON.stringify([this.currentContext, this.getCurrentCluster()?.server, this.getCurrentUser()?.name]);
    const pool = this.pools.get(key) ?? context.getDispatcher();
    // None for plain http: fetch's global dispatcher pools those already.
    if (pool === undefined) return;
    this.pools.set(key, pool);
    context.setDispatcher(pool);
  }
}
