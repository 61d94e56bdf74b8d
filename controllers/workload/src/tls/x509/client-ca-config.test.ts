// What spec.authentication.x509 changes in the rendered objects: the x509 provider, a certificate asked for (not
// required) on the secure port and checked against the client CA while peers stay on the workload CA; the user's
// client CA Secret mounted (only ca.crt), its path for start.sh, its digest on the pod template.
import type { V1Container } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { CONFIG_HASH_ANNOTATION } from '../../render/config-hash.js';
import { renderWorkload, type RenderedWorkload } from '../../render/render.js';
import { EXPECTED_TLS_ZOO_CFG, minimalWorkload, withSpec } from '../../render/test-workloads.js';
import { CERTIFICATE_ANNOTATION } from '../member-config.js';

const withX509 = withSpec(minimalWorkload(), (spec) => ({
  ...spec,
  tls: { ...spec.tls, quorum: true, client: 'Only' },
  authentication: { x509: { clientCaSecretRef: { name: 'client-ca' } } },
}));

function render(clientCaDigest: string): RenderedWorkload {
  return renderWorkload({ workload: withX509, replicas: 3, initialMembers: 3, quorumTls: 'Tls', updateStrategy: 'RollingUpdate', monitoringCrdsPresent: false, certificateFingerprint: 'AB:CD', trustBundleHash: undefined, saslRevision: undefined, clientCaDigest, clientsAdmitted: true });
}

function container(rendered: RenderedWorkload): V1Container {
  const found = rendered.statefulSet.spec?.template.spec?.containers[0];
  if (found === undefined) throw new Error('no container');
  return found;
}

describe('an ensemble whose clients authenticate by certificate', () => {
  const rendered = render('c0ffee');
  const lines = (rendered.configMap.data?.['zoo.cfg'] ?? '').split('\n');

  it('registers the x509 provider, and nothing that enforces authentication', () => {
    expect(lines.filter((line) => /^(authProvider|enforce\.auth|sessionRequireClientSASLAuth)/.test(line))).toEqual([
      'authProvider.x509=org.apache.zookeeper.server.auth.X509AuthenticationProvider',
    ]);
  });

  it('asks clients for a certificate and trusts the client CA for it, while members trust the workload CA', () => {
    expect(lines.filter((line) => line.startsWith('ssl.'))).toEqual([
      'ssl.keyStore.location=@KEY_STORE_DIR@/keystore.pem',
      'ssl.keyStore.type=PEM',
      'ssl.trustStore.location=@CLIENT_CA_DIR@/ca.crt',
      'ssl.trustStore.type=PEM',
      'ssl.clientAuth=want',
      ...EXPECTED_TLS_ZOO_CFG.quorum.filter((line) => line.startsWith('ssl.')),
    ]);
  });

  it('mounts only ca.crt of the user\'s Secret, readable by all (certificates only), and tells start.sh where it is', () => {
    expect(rendered.statefulSet.spec?.template.spec?.volumes).toContainEqual({
      name: 'client-ca',
      secret: { secretName: 'client-ca', items: [{ key: 'ca.crt', path: 'ca.crt' }], defaultMode: 0o444 },
    });
    expect(container(rendered).volumeMounts).toContainEqual({ name: 'client-ca', mountPath: '/zk-oam/client-ca', readOnly: true });
    expect(container(rendered).env).toContainEqual({ name: 'ZK_CLIENT_CA_DIR', value: '/zk-oam/client-ca' });
  });

  it('puts the client CA digest on the pod template, so that a new CA restarts the members; the config hash stays', () => {
    expect(rendered.statefulSet.spec?.template.metadata?.annotations).toEqual({
      [CONFIG_HASH_ANNOTATION]: expect.any(String) as unknown,
      [CERTIFICATE_ANNOTATION]: 'AB:CD',
      'zookeeper.zkoam.dev/client-ca-sha256': 'c0ffee',
    });
    const next = render('decade');
    expect(next.statefulSet.spec?.template.metadata?.annotations?.[CONFIG_HASH_ANNOTATION]).toBe(rendered.statefulSet.spec?.template.metadata?.annotations?.[CONFIG_HASH_ANNOTATION]);
  });
});
