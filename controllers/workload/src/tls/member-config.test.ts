// What spec.tls changes in the rendered objects: zoo.cfg, membership lines, ports, the mounted Secret, the env of the
// scripts, and the certificate on the pod template.
import type { V1Container } from '@kubernetes/client-node';
import { finalQuorumTlsStep, type QuorumTlsStep } from '@zk-oam/apis';
import { describe, expect, it } from 'vitest';
import type { RenderInput } from '../render/input.js';
import { renderWorkload, type RenderedWorkload } from '../render/render.js';
import { EXPECTED_TLS_ZOO_CFG, minimalWorkload, withSpec } from '../render/test-workloads.js';

function renderInput(tls: { quorum?: boolean; client?: 'Disabled' | 'Alongside' | 'Only' }): RenderInput {
  const workload = withSpec(minimalWorkload(), (spec) => ({ ...spec, tls: { ...spec.tls, ...tls } }));
  return { workload, replicas: 3, initialMembers: 3, quorumTls: finalQuorumTlsStep(workload.spec.tls), updateStrategy: 'RollingUpdate', monitoringCrdsPresent: false, certificateFingerprint: 'AB:CD', trustBundleHash: undefined, saslRevision: undefined, clientCaDigest: undefined, clientsAdmitted: true };
}

function render(tls: { quorum?: boolean; client?: 'Disabled' | 'Alongside' | 'Only' }): RenderedWorkload {
  return renderWorkload(renderInput(tls));
}

function container(rendered: RenderedWorkload): V1Container {
  const found = rendered.statefulSet.spec?.template.spec?.containers[0];
  if (found === undefined) throw new Error('no container');
  return found;
}

function zooCfgLines(rendered: RenderedWorkload): string[] {
  return (rendered.configMap.data?.['zoo.cfg'] ?? '').split('\n');
}

const env = (rendered: RenderedWorkload, name: string): string | undefined => container(rendered).env?.find((entry) => entry.name === name)?.value;

describe('a TLS-only ensemble (tls.quorum and tls.client Only)', () => {
  const input = renderInput({ quorum: true, client: 'Only' });
  const rendered = renderWorkload(input);

  it('serves clients on the secure port only, through Netty, with the PEM key and trust stores of the mounted Secret', () => {
    expect(zooCfgLines(rendered)).toEqual(expect.arrayContaining([...EXPECTED_TLS_ZOO_CFG.client]));
    expect(zooCfgLines(rendered).filter((line) => line.startsWith('clientPort'))).toEqual([]);
  });

  it('encrypts quorum and election traffic, peers trusted by the CA', () => {
    expect(zooCfgLines(rendered)).toEqual(expect.arrayContaining([...EXPECTED_TLS_ZOO_CFG.quorum]));
  });

  it('leaves the plain client port out of the membership lines, so that no member opens it', () => {
    expect(rendered.configMap.data?.['dynamic.initial.cfg']).toBe(
      [0, 1, 2].map((ordinal) => `server.${ordinal + 1}=zk-${ordinal}.zk-headless.prod.svc.cluster.local:2888:3888:participant\n`).join(''),
    );
  });

  it('mounts the member TLS Secret read-only and tells the scripts to ask four-letter words over TLS on 2281', () => {
    expect(rendered.statefulSet.spec?.template.spec?.volumes).toContainEqual({ name: 'tls', secret: { secretName: 'zk-tls', defaultMode: 0o400 } });
    expect(container(rendered).volumeMounts).toContainEqual({ name: 'tls', mountPath: '/zk-oam/tls', readOnly: true });
    expect([env(rendered, 'ZK_FOUR_LETTER_WORD_PORT'), env(rendered, 'ZK_FOUR_LETTER_WORD_TLS'), env(rendered, 'ZK_TLS_DIR'), env(rendered, 'ZK_PLAIN_CLIENT_PORT')]).toEqual([
      '2281',
      'true',
      '/zk-oam/tls',
      '',
    ]);
  });

  it('exposes only the secure client port, on the container and both Services', () => {
    expect(container(rendered).ports?.map((port) => port.name)).toEqual(['client-tls', 'quorum', 'election']);
    expect(rendered.clientService.spec?.ports).toEqual([{ name: 'client-tls', port: 2181, targetPort: 2281 }]);
    expect(rendered.headlessService.spec?.ports?.map((port) => [port.name, port.port])).toEqual([
      ['client-tls', 2281],
      ['quorum', 2888],
      ['election', 3888],
    ]);
  });

  it('carries the certificate fingerprint on the pod template, so that a renewed certificate restarts the members', () => {
    expect(rendered.statefulSet.spec?.template.metadata?.annotations?.['zookeeper.zkoam.dev/certificate-sha256']).toBe('AB:CD');
    // No trusted-CA hash outside a CA rotation: the template stays what it was before rotations existed.
    expect(rendered.statefulSet.spec?.template.metadata?.annotations).not.toHaveProperty(['zookeeper.zkoam.dev/ca-bundle-sha256']);
  });

  it('carries the hash of the trusted CAs on the pod template during a CA rotation, so that a change of trust restarts the members', () => {
    const rotating = renderWorkload({ ...input, trustBundleHash: 'ff00' });
    expect(rotating.statefulSet.spec?.template.metadata?.annotations).toMatchObject({ 'zookeeper.zkoam.dev/certificate-sha256': 'AB:CD', 'zookeeper.zkoam.dev/ca-bundle-sha256': 'ff00' });
  });
});

describe('TLS beside plain text (tls.client Alongside)', () => {
  const rendered = render({ client: 'Alongside' });

  it('keeps the plain client port in the membership lines and for four-letter words, and adds the secure one', () => {
    expect(rendered.configMap.data?.['dynamic.initial.cfg']).toContain(':2888:3888:participant;zk-0.zk-headless.prod.svc.cluster.local:2181\n');
    expect([env(rendered, 'ZK_FOUR_LETTER_WORD_PORT'), env(rendered, 'ZK_FOUR_LETTER_WORD_TLS'), env(rendered, 'ZK_PLAIN_CLIENT_PORT')]).toEqual(['2181', 'false', '2181']);
    expect(rendered.clientService.spec?.ports).toEqual([
      { name: 'client', port: 2181, targetPort: 2181 },
      { name: 'client-tls', port: 2281, targetPort: 2281 },
    ]);
    expect(zooCfgLines(rendered)).toContain('secureClientPort=2281');
    expect(zooCfgLines(rendered).some((line) => line.startsWith('sslQuorum'))).toBe(false);
  });
});

describe('quorum TLS alone (tls.quorum, tls.client Disabled)', () => {
  const rendered = render({ quorum: true });

  it('encrypts member traffic and leaves clients on the plain port, without Netty', () => {
    expect(zooCfgLines(rendered)).toContain('sslQuorum=true');
    expect(zooCfgLines(rendered).some((line) => line.startsWith('serverCnxnFactory') || line.startsWith('secureClientPort') || line.startsWith('ssl.keyStore'))).toBe(false);
    expect(container(rendered).ports?.map((port) => port.name)).toEqual(['client', 'quorum', 'election']);
    expect(env(rendered, 'ZK_TLS_DIR')).toBe('/zk-oam/tls');
  });
});

describe('no TLS (the default)', () => {
  it('renders no TLS line, volume or annotation', () => {
    const rendered = renderWorkload({ workload: minimalWorkload(), replicas: 3, initialMembers: 3, quorumTls: 'Plain', updateStrategy: 'RollingUpdate', monitoringCrdsPresent: false, certificateFingerprint: undefined, trustBundleHash: undefined, saslRevision: undefined, clientCaDigest: undefined, clientsAdmitted: true });
    expect(zooCfgLines(rendered).some((line) => /ssl|secure|serverCnxnFactory/i.test(line))).toBe(false);
    expect(rendered.statefulSet.spec?.template.spec?.volumes?.map((volume) => volume.name)).toEqual(['config']);
    expect(Object.keys(rendered.statefulSet.spec?.template.metadata?.annotations ?? {})).toEqual(['zookeeper.zkoam.dev/config-hash']);
  });
});

describe('the steps of a move to quorum TLS', () => {
  const quorumLines = (step: QuorumTlsStep): string[] => {
    const workload = withSpec(minimalWorkload(), (spec) => ({ ...spec, tls: { ...spec.tls, quorum: true } }));
    const rendered = renderWorkload({ workload, replicas: 3, initialMembers: 3, quorumTls: step, updateStrategy: 'OnDelete', monitoringCrdsPresent: false, certificateFingerprint: 'AB:CD', trustBundleHash: undefined, saslRevision: undefined, clientCaDigest: undefined, clientsAdmitted: true });
    return zooCfgLines(rendered).filter((line) => /^(sslQuorum|portUnification|ssl\.quorum\.)/.test(line));
  };
  const stores = EXPECTED_TLS_ZOO_CFG.quorum.slice(1);

  it('first accepts TLS beside plain text while still connecting in plain text', () => {
    expect(quorumLines('PlainAcceptingTls')).toEqual(['sslQuorum=false', 'portUnification=true', ...stores]);
  });

  it('then connects with TLS while still accepting plain text', () => {
    expect(quorumLines('TlsAcceptingPlain')).toEqual(['sslQuorum=true', 'portUnification=true', ...stores]);
  });

  it('ends with TLS only, and renders nothing for plain text', () => {
    expect(quorumLines('Tls')).toEqual([...EXPECTED_TLS_ZOO_CFG.quorum]);
    expect(quorumLines('Plain')).toEqual([]);
  });
});
