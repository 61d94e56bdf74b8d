// The apiserver's audit policy: every write (create/update/patch/delete) at Metadata level, nothing else,
// so later tests can count which identity wrote what.
import { writeFileSync } from 'node:fs';
import { stringify } from 'yaml';

export const auditedVerbs = ['create', 'update', 'patch', 'delete', 'deletecollection'] as const;

export function writeAuditPolicy(file: string): string {
  writeFileSync(
    file,
    stringify({
      apiVersion: 'audit.k8s.io/v1',
      kind: 'Policy',
      omitStages: ['RequestReceived'],
      rules: [{ level: 'Metadata', verbs: [...auditedVerbs] }, { level: 'None' }],
    }),
  );
  return file;
}
