// The superuser digest against the value ZooKeeper's own tool computes.
import { describe, expect, it } from 'vitest';
import { superCredential, superDigest } from './super-digest.js';

describe('superDigest', () => {
  // Computed once with ZooKeeper 3.8's own tool:
  // java -cp /usr/share/java/zookeeper.jar org.apache.zookeeper.server.auth.DigestAuthenticationProvider super:password
  it('matches the digest ZooKeeper computes for super:password', () => {
    expect(superDigest('password')).toBe('super:DyNYQEQvajljsxlhf5uS4PJ9R28=');
  });

  it('pairs with the credential given to addAuth', () => {
    expect(superCredential('password')).toBe('super:password');
  });
});
