// Renders kubeconfig files with credentials embedded (no paths), so they can be copied anywhere.
import { writeFileSync } from 'node:fs';
import { stringify } from 'yaml';

export type KubeconfigCredentials =
  | { kind: 'client-certificate'; certPem: string; keyPem: string }
  | { kind: 'token'; token: string };

export interface KubeconfigSpec {
  server: string;
  caPem: string;
  user: string;
  credentials: KubeconfigCredentials;
  namespace?: string;
}

const base64 = (text: string): string => Buffer.from(text, 'utf8').toString('base64');

export function renderKubeconfig(spec: KubeconfigSpec): string {
  const user =
    spec.credentials.kind === 'token'
      ? { token: spec.credentials.token }
      : {
          'client-certificate-data': base64(spec.credentials.certPem),
          'client-key-data': base64(spec.credentials.keyPem),
        };
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: 'bed', cluster: { server: spec.server, 'certificate-authority-data': base64(spec.caPem) } }],
    users: [{ name: spec.user, user }],
    contexts: [
      {
        name: 'bed',
        context: { cluster: 'bed', user: spec.user, ...(spec.namespace ? { namespace: spec.namespace } : {}) },
      },
    ],
    'current-context': 'bed',
  });
}

/** Writes a kubeconfig readable only by its owner (it holds credentials); returns the path. */
export function writeKubeconfig(file: string, spec: KubeconfigSpec): string {
  writeFileSync(file, renderKubeconfig(spec), { mode: 0o600 });
  return file;
}
