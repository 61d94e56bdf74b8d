// Objects parsed at the boundary: whole through their kind's schema, or the few fields a narrow view reads.
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { ObjectShapeError, parseShape } from './parse-object.js';

const replicasShape = z.looseObject({ spec: z.looseObject({ replicas: z.int() }) });

describe('parseShape', () => {
  it('gives the fields the view reads, keeping the rest', () => {
    expect(parseShape(replicasShape, { spec: { replicas: 3, template: {} } }, 'StatefulSet', 'zk')).toEqual({ spec: { replicas: 3, template: {} } });
  });

  it('names the kind and the object that lacks a field, keeping the parse error as its cause', () => {
    const parsing = (): unknown => parseShape(replicasShape, { spec: {} }, 'StatefulSet', 'zk');
    expect(parsing).toThrow(ObjectShapeError);
    expect(parsing).toThrow('StatefulSet zk lacks a field the reconcile reads');
  });
});
