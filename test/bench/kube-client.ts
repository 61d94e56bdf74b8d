// `npm run bench:client`: the CPU one request to the apiserver costs this process, by how PooledKubeConfig sends it.
// On one fresh bed, ZKOAM_BENCH_ROUNDS rounds (5 by default), each running every variant in turn: 600 ConfigMap creates
// then 600 reads of one ConfigMap, 8 at a time. The variants:
// - pooled: PooledKubeConfig as the controllers run it (HTTP/2, one authentication per AUTHENTICATION_TTL_MS);
// - http1: the same, with the connection pool speaking HTTP/1.1 (less CPU per request, a TLS connection per watch);
// - authenticated each time: the same, with client-node's authentication for every request (as before the pool kept it).
// It prints a table of microseconds of CPU (user and system, process.cpuUsage) per request: the first round (a cold
// process, as in a burst after a quiet hour) and the median of the others.
import { pino } from 'pino';
import { Agent } from 'undici';
import { KubeConfig, type RequestContext } from '@kubernetes/client-node';
import type { RequestOptions as HttpsRequestOptions } from 'node:https';
import { KubeClient, PooledKubeConfig } from '@zk-oam/runtime';
import { resolveBinaries, startBed } from '../src/bed/index.js';
import { median } from './figures.js';

const ROUNDS = Number(process.env['ZKOAM_BENCH_ROUNDS'] ?? 5);
const REQUESTS = 600;
const CONCURRENCY = 8;
const NAMESPACE = 'bench-client';

/** PooledKubeConfig's authentication, on an HTTP/1.1 pool made once with the same TLS settings. */
class Http1KubeConfig extends PooledKubeConfig {
  private pool: Agent | undefined;

  override async applySecurityAuthentication(context: RequestContext): Promise<void> {
    await super.applySecurityAuthentication(context);
    this.pool ??= new Agent({ allowH2: false, connect: await tlsOf(this) });
    context.setDispatcher(this.pool);
  }
}

/** PooledKubeConfig's pool, with client-node's whole authentication for each request. */
class AuthenticatedEachTime extends PooledKubeConfig {
  override async applySecurityAuthentication(context: RequestContext): Promise<void> {
    await super.applySecurityAuthentication(context);
    const pool = context.getDispatcher();
    await KubeConfig.prototype.applySecurityAuthentication.call(this, context);
    if (pool !== undefined) context.setDispatcher(pool);
  }
}

async function tlsOf(kubeConfig: KubeConfig): Promise<Pick<HttpsRequestOptions, 'ca' | 'cert' | 'key'>> {
  const options: HttpsRequestOptions = {};
  await kubeConfig.applyToHTTPSOptions(options);
  return { ca: options.ca, cert: options.cert, key: options.key };
}

/** Microseconds of this process's CPU per call of `request`, `REQUESTS` calls, `CONCURRENCY` at a time. */
async function cpuPerRequest(request: (index: number) => Promise<unknown>): Promise<number> {
  const before = process.cpuUsage();
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < REQUESTS) await request(next++);
    }),
  );
  const used = process.cpuUsage(before);
  return (used.user + used.system) / REQUESTS;
}

async function main(): Promise<void> {
  const bed = await startBed({ log: pino({ level: 'warn' }), binaries: await resolveBinaries(process.env), ourImages: [] });
  try {
    const variants = { pooled: new PooledKubeConfig(), http1: new Http1KubeConfig(), 'authenticated each time': new AuthenticatedEachTime() };
    for (const kubeConfig of Object.values(variants)) kubeConfig.loadFromFile(bed.info.kubeconfig);
    const admin = new KubeClient(variants.pooled);
    await admin.request('POST', '/api/v1/namespaces', { body: { metadata: { name: NAMESPACE } } });
    await admin.request('POST', `/api/v1/namespaces/${NAMESPACE}/configmaps`, { body: { metadata: { name: 'read' }, data: { a: 'x'.repeat(2_000) } } });
    const figures = new Map<string, { creates: number[]; reads: number[] }>(Object.keys(variants).map((name) => [name, { creates: [], reads: [] }]));
    for (let round = 0; round < ROUNDS; round += 1) {
      for (const [name, kubeConfig] of Object.entries(variants)) {
        const client = new KubeClient(kubeConfig);
        const body = (index: number) => ({ metadata: { name: `${name.replaceAll(' ', '-')}-${String(round)}-${String(index)}` }, data: { a: 'x'.repeat(2_000) } });
        const creates = await cpuPerRequest((index) => client.request('POST', `/api/v1/namespaces/${NAMESPACE}/configmaps`, { body: body(index) }));
        const reads = await cpuPerRequest(() => client.request('GET', `/api/v1/namespaces/${NAMESPACE}/configmaps/read`));
        figures.get(name)?.creates.push(creates);
        figures.get(name)?.reads.push(reads);
        process.stderr.write(`[bench] round ${String(round + 1)}, ${name}: ${creates.toFixed(0)} µs a create, ${reads.toFixed(0)} µs a read\n`);
      }
    }
    const rows = [...figures].map(([name, { creates, reads }]) => {
      const later = (values: number[]) => (values.length > 1 ? median(values.slice(1)).toFixed(0) : 'n/a');
      return `| ${name} | ${(creates[0] ?? Number.NaN).toFixed(0)} | ${later(creates)} | ${(reads[0] ?? Number.NaN).toFixed(0)} | ${later(reads)} |`;
    });
    process.stdout.write(
      [
        `CPU of this process per request (µs), ${String(REQUESTS)} of each, ${String(CONCURRENCY)} at a time, ${String(ROUNDS)} rounds; first round, then the median of the others.`,
        '',
        '| variant | create, first | create, later | read, first | read, later |',
        '| --- | --- | --- | --- | --- |',
        ...rows,
        '',
      ].join('\n'),
    );
  } finally {
    await bed.stop();
  }
}

await main();
