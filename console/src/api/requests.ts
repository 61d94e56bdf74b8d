// The request bodies, validated with the same zod schemas the CRDs are generated from: a bad request is refused
// with 400 before anything reaches the API server, naming each rejected field by its path in the body.
import {
  dnsSubdomainSchema,
  fieldProblems,
  MAX_WORKLOAD_NAME_LENGTH,
  rollingSpecSchema,
  scaleSpecSchema,
  workloadSpecSchema,
} from '@zk-oam/apis';
import { z } from 'zod';
import { badRequest } from '../http/problem.js';

const labelsSchema = z.record(z.string(), z.string()).optional();

export const createRequestSchema = z.object({
  metadata: z.object({
    name: dnsSubdomainSchema.max(MAX_WORKLOAD_NAME_LENGTH),
    labels: labelsSchema,
    annotations: labelsSchema,
  }),
  spec: workloadSpecSchema,
});

export const updateRequestSchema = z.object({
  metadata: z
    .object({
      /** When given, the update applies only to that version (optimistic concurrency: 409 otherwise). */
      resourceVersion: z.string().min(1).optional(),
      labels: labelsSchema,
      annotations: labelsSchema,
    })
    .optional(),
  spec: workloadSpecSchema,
});

/** A JSON merge patch (RFC 7386) of the workload's labels, annotations and spec; `null` removes a field. */
export const patchRequestSchema = z.object({
  metadata: z
    .object({
      labels: z.record(z.string(), z.string().nullable()).optional(),
      annotations: z.record(z.string(), z.string().nullable()).optional(),
    })
    .optional(),
  spec: z.record(z.string(), z.unknown()).optional(),
});

export const scaleRequestSchema = z.object({ replicas: scaleSpecSchema.shape.replicas });

export const restartRequestSchema = z.object({
  trigger: rollingSpecSchema.shape.restartTrigger.describe('The new restart trigger; the time of the request when absent.'),
});

/** The body parsed by `schema`, or a 400 naming every rejected field. */
export function validated<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  const result = schema.safeParse(body, { reportInput: true });
  if (result.success) return result.data;
  const problems = fieldProblems(result.error);
  throw badRequest(`invalid request: ${problems.map((problem) => `${problem.path}: ${problem.problem}`).join('; ')}`, problems);
}

export const sessionRequestSchema = z.object({
  /** A Kubernetes bearer token; the console keeps it only in the caller's browser, in an HttpOnly cookie. */
  token: z.string().min(1),
});
