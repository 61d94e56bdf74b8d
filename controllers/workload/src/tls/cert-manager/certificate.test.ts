// The Certificate requested from cert-manager: the whole object, for the default and an explicit issuer.
import { derivedNames, workloadLabels, ZOOKEEPER_WORKLOAD } from '@zk-oam/apis';
import { describe, expect, it } from 'vitest';
import { minimalWorkload, withSpec } from '../../render/test-workloads.js';
import { memberCertificateNames } from '../certificate-names.js';
import { buildCertificate, certificateLifetime } from './certificate.js';

const withIssuer = withSpec(minimalWorkload(), (spec) => ({
  ...spec,
  tls: { quorum: true, client: 'Only', certificates: { validityHours: 24, issuerRef: { name: 'ca-issuer', kind: 'Issuer', group: 'cert-manager.io' } } },
}));

describe('buildCertificate', () => {
  it("asks for the members' Secret with the names, usages, key and lifetime of the controller's own certificate", () => {
    const workload = withIssuer;
    const issuerRef = { name: 'ca-issuer', kind: 'Issuer', group: 'cert-manager.io' } as const;
    expect(buildCertificate(workload, issuerRef)).toEqual({
      apiVersion: 'cert-manager.io/v1',
      kind: 'Certificate',
      metadata: {
        name: derivedNames('zk').tlsSecret,
        namespace: 'prod',
        labels: workloadLabels('zk'),
        ownerReferences: [{ apiVersion: ZOOKEEPER_WORKLOAD.apiVersion, kind: ZOOKEEPER_WORKLOAD.kind, name: 'zk', uid: workload.metadata.uid, controller: true, blockOwnerDeletion: true }],
      },
      spec: {
        secretName: derivedNames('zk').tlsSecret,
        // The labels the workload controller maps the Secret back to its workload by (main.ts).
        secretTemplate: { labels: workloadLabels('zk') },
        // The controller's own certificate's names (tls/issue.test.ts lists them).
        dnsNames: memberCertificateNames('zk', 'prod'),
        duration: '24h',
        renewBefore: '480m',
        usages: ['digital signature', 'key encipherment', 'server auth', 'client auth'],
        privateKey: { algorithm: 'ECDSA', size: 256, encoding: 'PKCS8', rotationPolicy: 'Always' },
        issuerRef: { name: 'ca-issuer', kind: 'Issuer', group: 'cert-manager.io' },
      },
    });
  });

  it('names a ClusterIssuer, or an external issuer of another group, as given', () => {
    const issuerRef = { name: 'vault', kind: 'ClusterIssuer', group: 'example.com' } as const;
    expect(buildCertificate(withIssuer, issuerRef).spec.issuerRef).toEqual({ name: 'vault', kind: 'ClusterIssuer', group: 'example.com' });
  });
});

describe('certificateLifetime', () => {
  it.each([
    [1, '1h', '20m'],
    [24, '24h', '480m'],
    [8_760, '8760h', '175200m'],
  ])('%i hours: duration %s, renewBefore a third of it, %s', (hours, duration, renewBefore) => {
    expect(certificateLifetime(hours, undefined)).toEqual({ duration, renewBefore });
  });

  it('takes renewBeforeMinutes as renewBefore when set', () => {
    expect(certificateLifetime(1, 59)).toEqual({ duration: '1h', renewBefore: '59m' });
  });
});
