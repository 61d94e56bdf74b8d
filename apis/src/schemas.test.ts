// Parsing with the zod schemas: samples pass, defaults match the CRDs, bad input is named field by field.
import { describe, expect, it } from 'vitest';
import { applicationConfigurationSchema, componentSchema, traitDefinitionSchema } from './oam/index.js';
import { parseResource, ResourceValidationError } from './parse.js';
import { zookeeperRollingSchema } from './rolling/index.js';
import { zookeeperScaleSchema } from './scale/index.js';
import { FULL_WORKLOAD_SPEC_EXAMPLE, zookeeperWorkloadSchema } from './workload/index.js';

const metadata = { name: 'zk', namespace: 'default' };
const workload = (spec: unknown): unknown => ({
  apiVersion: 'workload.zookeeper.zkoam.dev/v1alpha1',
  kind: 'ZookeeperWorkload',
  metadata,
  spec,
});
const scale = (spec: unknown): unknown => ({ apiVersion: 'scale.zookeeper.zkoam.dev/v1alpha1', kind: 'ZookeeperScale', metadata, spec });
const rolling = (spec: unknown): unknown => ({ apiVersion: 'rolling.zookeeper.zkoam.dev/v1alpha1', kind: 'ZookeeperRolling', metadata, spec });

function problemsOf(parse: () => unknown): string[] {
  try {
    parse();
  } catch (error) {
    if (error instanceof ResourceValidationError) return error.problems.map((p) => `${p.path}: ${p.problem}`);
    throw error;
  }
  throw new Error('expected the input to be rejected');
}

describe('ZookeeperWorkload', () => {
  it('fills every default into an empty spec', () => {
    const parsed = parseResource(zookeeperWorkloadSchema, workload({}), 'ZookeeperWorkload default/zk');
    expect(parsed.spec).toEqual({
      image: { repository: 'zookeeper', tag: '3.9.4', pullPolicy: 'IfNotPresent' },
      replicas: 3,
      storage: { size: '1Gi', reclaimPolicy: 'Retain' },
      config: { tickTime: 2000, initLimit: 10, syncLimit: 5, maxClientCnxns: 60, autopurge: { snapRetainCount: 3, purgeInterval: 1 } },
      metrics: { enabled: false, port: 7000 },
      placement: { antiAffinity: 'preferred' },
      clientService: { type: 'ClusterIP', port: 2181 },
      tls: { quorum: false, client: 'Disabled' },
    });
  });

  it('accepts a fully specified ensemble and keeps what was set', () => {
    const parsed = parseResource(zookeeperWorkloadSchema, workload(FULL_WORKLOAD_SPEC_EXAMPLE), 'example');
    expect(parsed.spec).toEqual(FULL_WORKLOAD_SPEC_EXAMPLE);
  });

  it.each([
    ['replicas 0', { replicas: 0 }, 'spec.replicas: expected number >= 1, got 0'],
    ['replicas as a string', { replicas: 'three' }, 'spec.replicas: expected number, got "three"'],
    ['a fractional replica count', { replicas: 2.5 }, 'spec.replicas: expected integer, got 2.5'],
    ['an unknown pull policy', { image: { pullPolicy: 'Sometimes' } }, 'spec.image.pullPolicy: expected one of "Always"|"IfNotPresent"|"Never", got "Sometimes"'],
    ['a bad quantity', { storage: { size: '10 GB' } }, 'spec.storage.size: '],
    ['requests above limits', { resources: { requests: { memory: '4Gi' }, limits: { memory: '2Gi' } } }, 'spec.resources.requests.memory: expected at most the memory limit 2Gi, got "4Gi"'],
    ['cpu requests above limits', { resources: { requests: { cpu: 2 }, limits: { cpu: '1500m' } } }, 'spec.resources.requests.cpu: expected at most the cpu limit 1500m, got 2'],
    ['a heap as large as the memory limit', { resources: { limits: { memory: '1Gi' } }, jvm: { heap: '1024Mi' } }, 'spec.jvm.heap: expected below the memory limit 1Gi, got "1024Mi"'],
    ['tickTime below its bound', { config: { tickTime: 10 } }, 'spec.config.tickTime: expected number >= 100, got 10'],
    ['a managed zoo.cfg key', { config: { additionalConfig: { skipACL: 'yes' } } }, 'spec.config.additionalConfig.skipACL: expected a key the operator does not manage, got "skipACL"'],
    ['a membership line', { config: { additionalConfig: { 'server.1': 'a:2888:3888' } } }, 'spec.config.additionalConfig.server.1: expected a key the operator does not manage'],
    ['a multi-line value', { config: { additionalConfig: { 'jute.maxbuffer': '1\nskipACL=yes' } } }, 'spec.config.additionalConfig.jute.maxbuffer: '],
    ['min session timeout above max', { config: { minSessionTimeout: 9000, maxSessionTimeout: 4000 } }, 'spec.config.minSessionTimeout: expected at most maxSessionTimeout 4000, got 9000'],
    ['an unknown anti-affinity mode', { placement: { antiAffinity: 'always' } }, 'spec.placement.antiAffinity: expected one of "required"|"preferred"|"none", got "always"'],
    ['an unknown service type', { clientService: { type: 'ExternalName' } }, 'spec.clientService.type: expected one of'],
    ['a metrics port below 1024', { metrics: { port: 80 } }, 'spec.metrics.port: expected number >= 1024, got 80'],
    ['an upper-case secret name', { superuserSecretRef: { name: 'Super' } }, 'spec.superuserSecretRef.name: expected a lowercase DNS subdomain, got "Super"'],
    ['an unknown client TLS mode', { tls: { client: 'Required' } }, 'spec.tls.client: expected one of "Disabled"|"Alongside"|"Only", got "Required"'],
    ['certificates without TLS', { tls: { certificates: { validityHours: 24 } } }, 'spec.tls.certificates: expected tls.quorum or tls.client to use TLS'],
    ['a certificate validity of 0 hours', { tls: { quorum: true, certificates: { validityHours: 0 } } }, 'spec.tls.certificates.validityHours: expected number >= 1, got 0'],
    [
      'a renewal as early as the validity',
      { tls: { quorum: true, certificates: { validityHours: 1, renewBeforeMinutes: 60 } } },
      'spec.tls.certificates.renewBeforeMinutes: expected less than validityHours × 60 (60 minutes)',
    ],
    [
      'a renewal as early as the default validity',
      { tls: { quorum: true, certificates: { renewBeforeMinutes: 525_600 } } },
      'spec.tls.certificates.renewBeforeMinutes: expected less than validityHours × 60 (525600 minutes)',
    ],
    ['a renewal 0 minutes before expiry', { tls: { quorum: true, certificates: { renewBeforeMinutes: 0 } } }, 'spec.tls.certificates.renewBeforeMinutes: expected number >= 1, got 0'],
    ['authentication without a method', { authentication: {} }, 'spec.authentication.sasl: expected an authentication method: sasl, x509, or both'],
    ['x509 without client TLS', { authentication: { x509: { clientCaSecretRef: { name: 'client-ca' } } } }, 'spec.authentication.x509: authentication.x509 needs tls.client Alongside or Only'],
    ['a certificate superuser in zoo.cfg', { config: { additionalConfig: { 'X509AuthenticationProvider.superUser': 'CN=root' } } }, 'spec.config.additionalConfig.X509AuthenticationProvider.superUser: expected a key the operator does not manage'],
    ['SASL users from the superuser Secret', { superuserSecretRef: { name: 'su' }, authentication: { sasl: { usersSecretRef: { name: 'su' } } } }, 'spec.authentication.sasl.usersSecretRef.name: authentication.sasl.usersSecretRef must name a Secret of its own'],
    ['SASL users from the CA Secret', { tls: { quorum: true, certificates: { caSecretRef: { name: 'ca' } } }, authentication: { sasl: { usersSecretRef: { name: 'ca' } } } }, 'spec.authentication.sasl.usersSecretRef.name: authentication.sasl.usersSecretRef must name a Secret of its own'],
    ['an auth provider in zoo.cfg', { config: { additionalConfig: { 'authProvider.x509': 'org.apache.zookeeper.server.auth.X509AuthenticationProvider' } } }, 'spec.config.additionalConfig.authProvider.x509: expected a key the operator does not manage'],
    ['enforced authentication in zoo.cfg', { config: { additionalConfig: { 'enforce.auth.enabled': 'true' } } }, 'spec.config.additionalConfig.enforce.auth.enabled: expected a key the operator does not manage'],
    ['SASL required in zoo.cfg', { config: { additionalConfig: { sessionRequireClientSASLAuth: 'true' } } }, 'spec.config.additionalConfig.sessionRequireClientSASLAuth: expected a key the operator does not manage'],
    ['another superuser digest in zoo.cfg', { config: { additionalConfig: { 'DigestAuthenticationProvider.superDigest': 'super:x' } } }, 'spec.config.additionalConfig.DigestAuthenticationProvider.superDigest: expected a key the operator does not manage'],
    [
      'a CA Secret and a cert-manager issuer together',
      { tls: { quorum: true, certificates: { caSecretRef: { name: 'ca' }, issuerRef: { name: 'issuer' } } } },
      'spec.tls.certificates.issuerRef: expected caSecretRef or issuerRef, not both',
    ],
    ['an unknown issuer kind', { tls: { quorum: true, certificates: { issuerRef: { name: 'issuer', kind: 'Vault' } } } }, 'spec.tls.certificates.issuerRef.kind: expected one of "Issuer"|"ClusterIssuer"'],
  ])('rejects %s, naming the field', (_case, spec, expected) => {
    expect(problemsOf(() => parseResource(zookeeperWorkloadSchema, workload(spec), 'ZookeeperWorkload default/zk')).join('\n')).toContain(expected);
  });

  it('takes a renewal a minute after issuance of a one-hour certificate', () => {
    const parsed = parseResource(zookeeperWorkloadSchema, workload({ tls: { quorum: true, certificates: { validityHours: 1, renewBeforeMinutes: 59 } } }), 'x');
    expect(parsed.spec.tls.certificates).toEqual({ validityHours: 1, renewBeforeMinutes: 59 });
  });

  it("defaults a cert-manager issuer to an Issuer of cert-manager's group", () => {
    const parsed = parseResource(zookeeperWorkloadSchema, workload({ tls: { quorum: true, certificates: { issuerRef: { name: 'issuer' } } } }), 'x');
    expect(parsed.spec.tls.certificates).toEqual({ validityHours: 8_760, issuerRef: { name: 'issuer', kind: 'Issuer', group: 'cert-manager.io' } });
  });

  it('says what was parsed and lists every problem in the error message', () => {
    expect(() => parseResource(zookeeperWorkloadSchema, workload({ replicas: 0, metrics: { port: 1 } }), 'ZookeeperWorkload default/zk')).toThrow(
      'invalid ZookeeperWorkload default/zk: spec.replicas: expected number >= 1, got 0; spec.metrics.port: expected number >= 1024, got 1',
    );
  });

  it('reports a missing spec by its path', () => {
    const { spec: _spec, ...withoutSpec } = workload({}) as Record<string, unknown>;
    expect(problemsOf(() => parseResource(zookeeperWorkloadSchema, withoutSpec, 'x'))).toEqual(['spec: expected object, got nothing']);
  });
});

describe('ZookeeperScale', () => {
  it('defaults the workload reference, step timeout and volume policy', () => {
    expect(parseResource(zookeeperScaleSchema, scale({ workloadRef: { name: 'zk' }, replicas: 5 }), 'x').spec).toEqual({
      workloadRef: { apiVersion: 'workload.zookeeper.zkoam.dev/v1alpha1', kind: 'ZookeeperWorkload', name: 'zk' },
      replicas: 5,
      stepTimeoutSeconds: 600,
      removedMemberVolumePolicy: 'Retain',
    });
  });

  it.each([
    ['replicas 0', { workloadRef: { name: 'zk' }, replicas: 0 }, 'spec.replicas: expected number >= 1, got 0'],
    ['a negative step timeout', { workloadRef: { name: 'zk' }, replicas: 3, stepTimeoutSeconds: -5 }, 'spec.stepTimeoutSeconds: expected number >= 1, got -5'],
    ['a reference to another kind', { workloadRef: { kind: 'StatefulSet', name: 'zk' }, replicas: 3 }, 'spec.workloadRef.kind: expected one of "ZookeeperWorkload", got "StatefulSet"'],
    ['no workload name', { workloadRef: {}, replicas: 3 }, 'spec.workloadRef.name: expected string, got nothing'],
    ['an unknown volume policy', { workloadRef: { name: 'zk' }, replicas: 3, removedMemberVolumePolicy: 'Recycle' }, 'spec.removedMemberVolumePolicy: expected one of "Retain"|"Delete", got "Recycle"'],
  ])('rejects %s, naming the field', (_case, spec, expected) => {
    expect(problemsOf(() => parseResource(zookeeperScaleSchema, scale(spec), 'x'))).toContain(expected);
  });
});

describe('ZookeeperRolling', () => {
  it('defaults maxUnavailable to 1, paused to false and the leader handover to an election', () => {
    expect(parseResource(zookeeperRollingSchema, rolling({ workloadRef: { name: 'zk' }, restartTrigger: '2026-01-01T00:00:00Z' }), 'x').spec).toEqual({
      workloadRef: { apiVersion: 'workload.zookeeper.zkoam.dev/v1alpha1', kind: 'ZookeeperWorkload', name: 'zk' },
      maxUnavailable: 1,
      restartTrigger: '2026-01-01T00:00:00Z',
      paused: false,
      stepTimeoutSeconds: 600,
      leaderHandover: 'Election',
    });
  });

  it('rejects maxUnavailable 0, naming the field', () => {
    expect(problemsOf(() => parseResource(zookeeperRollingSchema, rolling({ workloadRef: { name: 'zk' }, maxUnavailable: 0 }), 'x'))).toEqual([
      'spec.maxUnavailable: expected number >= 1, got 0',
    ]);
  });

  it('accepts a status with conditions and rejects a condition with a bad status', () => {
    const condition = { type: 'Ready', status: 'True', reason: 'Completed', message: '', lastTransitionTime: '2026-11-22T04:00:00Z', observedGeneration: 1 };
    const valid = { ...(rolling({ workloadRef: { name: 'zk' } }) as object), status: { phase: 'Completed', conditions: [condition] } };
    expect(parseResource(zookeeperRollingSchema, valid, 'x').status?.conditions).toEqual([condition]);
    const invalid = { ...valid, status: { conditions: [{ ...condition, status: 'Yes' }] } };
    expect(problemsOf(() => parseResource(zookeeperRollingSchema, invalid, 'x'))).toEqual([
      'status.conditions[0].status: expected one of "True"|"False"|"Unknown", got "Yes"',
    ]);
  });
});

describe('OAM v1alpha2', () => {
  it('parses a Component wrapping a ZookeeperWorkload and an ApplicationConfiguration with both traits', () => {
    const component = componentSchema.parse({
      apiVersion: 'core.oam.dev/v1alpha2',
      kind: 'Component',
      metadata: { name: 'zk' },
      spec: {
        workload: workload({ replicas: 3 }),
        parameters: [{ name: 'replicas', fieldPaths: ['spec.replicas'], required: false }],
      },
    });
    expect(component.spec.workload.kind).toBe('ZookeeperWorkload');
    const appConfig = applicationConfigurationSchema.parse({
      apiVersion: 'core.oam.dev/v1alpha2',
      kind: 'ApplicationConfiguration',
      metadata: { name: 'app' },
      spec: {
        components: [
          {
            componentName: 'zk',
            parameterValues: [{ name: 'replicas', value: 5 }],
            traits: [{ trait: scale({ workloadRef: { name: 'zk' }, replicas: 5 }) }, { trait: rolling({ workloadRef: { name: 'zk' } }) }],
          },
        ],
      },
      status: { workloads: [{ componentName: 'zk', workloadRef: { apiVersion: 'workload.zookeeper.zkoam.dev/v1alpha1', kind: 'ZookeeperWorkload', name: 'zk' }, traits: [] }] },
    });
    expect(appConfig.spec.components[0]?.traits?.map((trait) => trait.trait.kind)).toEqual(['ZookeeperScale', 'ZookeeperRolling']);
  });

  it('parses a TraitDefinition naming its CRD and workloadRef path', () => {
    const definition = traitDefinitionSchema.parse({
      apiVersion: 'core.oam.dev/v1alpha2',
      kind: 'TraitDefinition',
      metadata: { name: 'zookeeperscales.scale.zookeeper.zkoam.dev' },
      spec: {
        definitionRef: { name: 'zookeeperscales.scale.zookeeper.zkoam.dev' },
        workloadRefPath: 'spec.workloadRef',
        appliesToWorkloads: ['zookeeperworkloads.workload.zookeeper.zkoam.dev'],
      },
    });
    expect(definition.spec.workloadRefPath).toBe('spec.workloadRef');
  });
});
