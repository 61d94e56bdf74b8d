// A key and a self-signed certificate for 127.0.0.1, for unit tests that stand up a local HTTPS server.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface SelfSigned {
  readonly key: Buffer;
  readonly cert: Buffer;
}

/** Writes `key.pem` and `cert.pem` (valid one day) into `dir` and returns them. */
export function selfSignedLocalhost(dir: string): SelfSigned {
  const keyFile = join(dir, 'key.pem');
  const certFile = join(dir, 'cert.pem');
  execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1', '-subj', '/CN=127.0.0.1',
    '-addext', 'subjectAltName=IP:127.0.0.1', '-keyout', keyFile, '-out', certFile], { stdio: 'ignore' });
  return { key: readFileSync(keyFile), cert: readFileSync(certFile) };
}
