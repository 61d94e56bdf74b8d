// A FAKE cert-manager for the bed: no cert-manager controller runs there, so the tests play its part. It signs the
// Certificate the workload controller requested with a test CA (openssl) and writes the Secret as cert-manager's CA
// issuer does: type kubernetes.io/tls, tls.crt, tls.key (PKCS#8, as the Certificate asks), ca.crt, the labels of
// spec.secretTemplate and cert-manager's annotations; then the Certificate's status, as its controller would.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { randomBytes } from 'node:crypto';
import { CoreV1Api, CustomObjectsApi, PatchStrategy, setHeaderOptions } from '@kubernetes/client-node';
import { z } from 'zod';
import { PooledKubeConfig } from '@zk-oam/runtime';

const run = promisify(execFile);

export const CERTIFICATES = { group: 'cert-manager.io', version: 'v1', plural: 'certificates' } as const;

/** The fields of a Certificate the fake reads: what the real one reads for a CA issuer. */
const certificateSchema = z.looseObject({
  metadata: z.looseObject({ name: z.string(), namespace: z.string() }),
  spec: z.looseObject({
    secretName: z.string(),
    secretTemplate: z.looseObject({ labels: z.record(z.string(), z.string()).optional() }).optional(),
    dnsNames: z.array(z.string()),
    duration: z.string().regex(/^\d+h$/),
    usages: z.array(z.string()),
    issuerRef: z.looseObject({ name: z.string(), kind: z.string(), group: z.string() }),
  }),
  status: z.looseObject({ revision: z.int().optional() }).optional(),
});
export type FakeIssuedCertificate = z.infer<typeof certificateSchema>;

const EXTENDED_USAGES: Record<string, string> = { 'server auth': 'serverAuth', 'client auth': 'clientAuth' };
const KEY_USAGES: Record<string, string> = { 'digital signature': 'digitalSignature', 'key encipherment': 'keyEncipherment' };

/** What the fake wrote: the certificate's serial (openssl's hex) and its PEM, never the key. */
export interface FakeIssuance {
  readonly serial: string;
  readonly certificatePem: string;
}

export class FakeCertManager {
  private readonly core: CoreV1Api;
  private readonly objects: CustomObjectsApi;

  private constructor(
    kubeconfig: string,
    private readonly dir: string,
    /** The test CA: what ca.crt holds and what clients trust. */
    readonly caFile: string,
  ) {
    const kubeConfig = new PooledKubeConfig();
    kubeConfig.loadFromFile(kubeconfig);
    this.core = kubeConfig.makeApiClient(CoreV1Api);
    this.objects = kubeConfig.makeApiClient(CustomObjectsApi);
  }

  /** A fake with a new self-signed ECDSA P-256 test CA in a temporary directory. */
  static async start(kubeconfig: string): Promise<FakeCertManager> {
    const dir = await mkdtemp(join(tmpdir(), 'zk-oam-fake-cert-manager-'));
    const caFile = join(dir, 'ca.crt');
    await run('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-keyout', join(dir, 'ca.key'), '-out', caFile,
      '-days', '30', '-subj', '/CN=fake cert-manager test CA', '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign']);
    return new FakeCertManager(kubeconfig, dir, caFile);
  }

  async certificate(namespace: string, name: string): Promise<FakeIssuedCertificate> {
    return certificateSchema.parse(await this.objects.getNamespacedCustomObject({ ...CERTIFICATES, namespace, name }));
  }

  /** Issues the Certificate (again: a new key and serial each time) into its Secret, and marks it Ready. */
  async issue(namespace: string, name: string): Promise<FakeIssuance> {
    const certificate = await this.certificate(namespace, name);
    const { spec } = certificate;
    const serial = randomBytes(16).toString('hex').replace(/^./, '1');
    const key = join(this.dir, `${name}.key`);
    const csr = join(this.dir, `${name}.csr`);
    const crt = join(this.dir, `${name}.crt`);
    const extensions = join(this.dir, `${name}.ext`);
    await writeFile(extensions, [
      // cert-manager marks the names critical when the subject is empty, as RFC 5280 asks (Java refuses it otherwise).
      `subjectAltName=critical,${spec.dnsNames.map((dnsName) => `DNS:${dnsName}`).join(',')}`,
      `keyUsage=critical,${spec.usages.flatMap((usage) => KEY_USAGES[usage] ?? []).join(',')}`,
      `extendedKeyUsage=${spec.usages.flatMap((usage) => EXTENDED_USAGES[usage] ?? []).join(',')}`,
      'basicConstraints=critical,CA:FALSE',
    ].join('\n'));
    await run('openssl', ['genpkey', '-algorithm', 'EC', '-pkeyopt', 'ec_paramgen_curve:P-256', '-out', key]);
    await run('openssl', ['req', '-new', '-key', key, '-subj', '/', '-out', csr]);
    const hours = Number(spec.duration.slice(0, -1));
    await run('openssl', ['x509', '-req', '-in', csr, '-CA', this.caFile, '-CAkey', join(this.dir, 'ca.key'), '-set_serial', `0x${serial}`,
      '-days', String(Math.max(1, Math.ceil(hours / 24))), '-extfile', extensions, '-out', crt]);
    const [certificatePem, keyPem, caPem] = await Promise.all([readFile(crt, 'utf8'), readFile(key, 'utf8'), readFile(this.caFile, 'utf8')]);
    await this.writeSecret(certificate, { 'tls.crt': certificatePem, 'tls.key': keyPem, 'ca.crt': caPem });
    await this.markReady(certificate);
    return { serial: serial.toUpperCase(), certificatePem };
  }

  private async writeSecret(certificate: FakeIssuedCertificate, data: Record<string, string>): Promise<void> {
    const { metadata, spec } = certificate;
    const body = {
      apiVersion: 'v1',
      kind: 'Secret',
      type: 'kubernetes.io/tls',
      metadata: {
        name: spec.secretName,
        namespace: metadata.namespace,
        labels: { ...spec.secretTemplate?.labels, 'controller.cert-manager.io/fao': 'true' },
        annotations: {
          'cert-manager.io/alt-names': spec.dnsNames.join(','),
          'cert-manager.io/certificate-name': metadata.name,
          'cert-manager.io/common-name': '',
          'cert-manager.io/ip-sans': '',
          'cert-manager.io/issuer-group': spec.issuerRef.group,
          'cert-manager.io/issuer-kind': spec.issuerRef.kind,
          'cert-manager.io/issuer-name': spec.issuerRef.name,
          'cert-manager.io/uri-sans': '',
        },
      },
      data: Object.fromEntries(Object.entries(data).map(([key, value]) => [key, Buffer.from(value).toString('base64')])),
    };
    await this.core.patchNamespacedSecret(
      { namespace: metadata.namespace, name: spec.secretName, body, fieldManager: 'fake-cert-manager', force: true },
      setHeaderOptions('Content-Type', PatchStrategy.ServerSideApply),
    );
  }

  private async markReady(certificate: FakeIssuedCertificate): Promise<void> {
    const { metadata } = certificate;
    const now = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
    const revision = (certificate.status?.revision ?? 0) + 1;
    const status = {
      conditions: [{ type: 'Ready', status: 'True', reason: 'Ready', message: 'Certificate is up to date and has not expired', lastTransitionTime: now, observedGeneration: 1 }],
      revision,
      notBefore: now,
    };
    await this.objects.patchNamespacedCustomObjectStatus(
      { ...CERTIFICATES, namespace: metadata.namespace, name: metadata.name, body: { apiVersion: 'cert-manager.io/v1', kind: 'Certificate', metadata: { name: metadata.name, namespace: metadata.namespace }, status }, fieldManager: 'fake-cert-manager', force: true },
      setHeaderOptions('Content-Type', PatchStrategy.ServerSideApply),
    );
  }

  async stop(): Promise<void> {
    await rm(this.dir, { recursive: true, force: true });
  }
}
