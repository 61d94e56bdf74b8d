// The value of `zookeeper.DigestAuthenticationProvider.superDigest` for a superuser password.
import { createHash } from 'node:crypto';

/** `super:base64(sha1("super:<password>"))`, as ZooKeeper's DigestAuthenticationProvider computes it. */
export function superDigest(password: string): string {
  return `super:${createHash('sha1').update(`super:${password}`, 'utf8').digest('base64')}`;
}

/** The credential for `addAuth('digest', ...)` matching {@link superDigest}. */
export function superCredential(password: string): string {
  return `super:${password}`;
}
