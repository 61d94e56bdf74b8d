// The superuser Secret carries the password for the admin client and the digest the servers are started with.
import { derivedNames, SUPERUSER_SECRET_KEYS } from '@zk-oam/apis';
import { describe, expect, it } from 'vitest';
import { buildSuperuserSecret } from './superuser-secret.js';
import { minimalWorkload, withSpec } from './test-workloads.js';

describe('buildSuperuserSecret', () => {
  it('holds the password and ZooKeeper\'s digest of it', () => {
    const secret = buildSuperuserSecret(minimalWorkload(), 'secret');
    expect({ name: secret.metadata?.name, type: secret.type, stringData: secret.stringData }).toEqual({
      name: derivedNames('zk').defaultSuperuserSecret,
      type: 'Opaque',
      // As printed by `java org.apache.zookeeper.server.auth.DigestAuthenticationProvider super:secret` (ZooKeeper 3.8)
      stringData: { [SUPERUSER_SECRET_KEYS.password]: 'secret', [SUPERUSER_SECRET_KEYS.digest]: 'super:lK75jTNcA+U9vtVEw5vB51mj/w4=' },
    });
  });

  it('takes the name from spec.superuserSecretRef when given', () => {
    const workload = withSpec(minimalWorkload(), (spec) => ({ ...spec, superuserSecretRef: { name: 'mine' } }));
    expect(buildSuperuserSecret(workload, 'x').metadata?.name).toBe('mine');
  });
});
