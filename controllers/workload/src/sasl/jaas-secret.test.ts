// What spec.authentication.sasl changes in the rendered objects: the SASL provider in zoo.cfg, the JAAS Secret mounted
// owner read-only, its path for start.sh, its revision on the pod template; and the JAAS Secret itself.
import type { V1Container } from '@kubernetes/client-node';
import { derivedNames, workloadLabels, ZOOKEEPER_WORKLOAD } from '@zk-oam/apis';
import { describe, expect, it } from 'vitest';
import { CONFIG_HASH_ANNOTATION } from '../render/config-hash.js';
import { renderWorkload, type RenderedWorkload } from '../render/render.js';
import { minimalWorkload, withSpec } from '../render/test-workloads.js';
import { buildSaslSecret } from './jaas-secret.js';

const withSasl = withSpec(minimalWorkload(), (spec) => ({ ...spec, authentication: { sasl: { usersSecretRef: { name: 'zk-users' } } } }));

function render(workload: typeof withSasl, saslRevision: string | undefined): RenderedWorkload {
  return renderWorkload({ workload, replicas: 3, initialMembers: 3, quorumTls: 'Plain', updateStrategy: 'RollingUpdate', monitoringCrdsPresent: false, certificateFingerprint: undefined, trustBundleHash: undefined, saslRevision, clientCaDigest: undefined, clientsAdmitted: true });
}

function container(rendered: RenderedWorkload): V1Container {
  const found = rendered.statefulSet.spec?.template.spec?.containers[0];
  if (found === undefined) throw new Error('no container');
  return found;
}

describe('an ensemble with SASL users', () => {
  const rendered = render(withSasl, '4242');

  it('registers the SASL provider in zoo.cfg, and nothing that enforces authentication', () => {
    const lines = (rendered.configMap.data?.['zoo.cfg'] ?? '').split('\n');
    expect(lines.filter((line) => /^(authProvider|enforce\.auth|sessionRequireClientSASLAuth)/.test(line))).toEqual([
      'authProvider.sasl=org.apache.zookeeper.server.auth.SASLAuthenticationProvider',
    ]);
  });

  it('mounts the JAAS Secret owner read-only and tells start.sh where it is', () => {
    expect(rendered.statefulSet.spec?.template.spec?.volumes).toContainEqual({ name: 'sasl', secret: { secretName: derivedNames('zk').saslSecret, defaultMode: 0o400 } });
    expect(container(rendered).volumeMounts).toContainEqual({ name: 'sasl', mountPath: '/zk-oam/sasl', readOnly: true });
    expect(container(rendered).env).toContainEqual({ name: 'ZK_SASL_DIR', value: '/zk-oam/sasl' });
  });

  it('puts the JAAS Secret revision on the pod template, so that changed users restart the members; the config hash stays', () => {
    expect(rendered.statefulSet.spec?.template.metadata?.annotations).toEqual({
      [CONFIG_HASH_ANNOTATION]: expect.any(String) as unknown,
      'zookeeper.zkoam.dev/sasl-users-revision': '4242',
    });
    const next = render(withSasl, '4243');
    expect(next.statefulSet.spec?.template.metadata?.annotations?.[CONFIG_HASH_ANNOTATION]).toBe(rendered.statefulSet.spec?.template.metadata?.annotations?.[CONFIG_HASH_ANNOTATION]);
  });
});

describe('an ensemble without authentication', () => {
  it('renders neither the provider, the volume, the env nor the annotation', () => {
    const rendered = render(minimalWorkload(), undefined);
    expect(rendered.configMap.data?.['zoo.cfg']).not.toContain('authProvider');
    expect(rendered.statefulSet.spec?.template.spec?.volumes?.map((volume) => volume.name)).toEqual(['config']);
    expect(container(rendered).env?.map((entry) => entry.name)).not.toContain('ZK_SASL_DIR');
    expect(Object.keys(rendered.statefulSet.spec?.template.metadata?.annotations ?? {})).toEqual([CONFIG_HASH_ANNOTATION]);
  });
});

describe('buildSaslSecret', () => {
  it('renders the JAAS file into the Secret <name>-sasl, owned by the workload', () => {
    const secret = buildSaslSecret(withSasl, [{ name: 'alice', password: 'a-pass' }]);
    expect(secret).toEqual({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: {
        name: derivedNames('zk').saslSecret,
        namespace: 'prod',
        labels: workloadLabels('zk'),
        ownerReferences: [expect.objectContaining({ kind: ZOOKEEPER_WORKLOAD.kind, name: 'zk', controller: true })],
      },
      type: 'Opaque',
      data: { 'jaas.conf': Buffer.from('Server {\n  org.apache.zookeeper.server.auth.DigestLoginModule required\n  user_alice="a-pass";\n};\n').toString('base64') },
    });
  });
});
