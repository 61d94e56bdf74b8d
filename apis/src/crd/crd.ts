// Builds one CustomResourceDefinition from a kind description; pure, so its output can be compared and committed.
import type { CustomResourceKind } from './kinds.js';
import { structuralSchema } from './structural-schema.js';
import type { CustomResourceDefinition, JsonSchemaProps } from './types.js';

function objectSchema(kind: CustomResourceKind): JsonSchemaProps {
  const { info } = kind;
  const properties: Record<string, JsonSchemaProps> = {
    apiVersion: { type: 'string', description: 'Versioned schema of this object.' },
    kind: { type: 'string', description: 'REST resource this object represents.' },
    metadata: { type: 'object' },
    spec: structuralSchema(kind.spec, `${info.kind}.spec`),
  };
  if (kind.status !== undefined) properties['status'] = structuralSchema(kind.status, `${info.kind}.status`);
  return {
    type: 'object',
    description: `${info.kind} (${info.apiVersion}).`,
    properties,
    required: ['spec'],
    ...(kind.objectRules === undefined ? {} : { 'x-kubernetes-validations': kind.objectRules }),
  };
}

export function customResourceDefinition(kind: CustomResourceKind): CustomResourceDefinition {
  const { info } = kind;
  const subresources = {
    ...(kind.status !== undefined ? { status: {} } : {}),
    ...(kind.scale !== undefined ? { scale: kind.scale } : {}),
  };
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${info.plural}.${info.group}`, labels: { 'app.kubernetes.io/part-of': 'zk-oam' } },
    spec: {
      group: info.group,
      names: {
        kind: info.kind,
        listKind: `${info.kind}List`,
        plural: info.plural,
        singular: info.singular,
        ...(info.shortNames.length > 0 ? { shortNames: [...info.shortNames] } : {}),
        ...(info.categories.length > 0 ? { categories: [...info.categories] } : {}),
      },
      scope: kind.scope,
      versions: [
        {
          name: info.version,
          served: true,
          storage: true,
          schema: { openAPIV3Schema: objectSchema(kind) },
          ...(Object.keys(subresources).length > 0 ? { subresources } : {}),
          ...(kind.printerColumns.length > 0 ? { additionalPrinterColumns: kind.printerColumns } : {}),
        },
      ],
    },
  };
}
