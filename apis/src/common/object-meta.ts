// The parts of Kubernetes object metadata the controllers read; other metadata fields pass through untouched.
import { z } from 'zod';

export const DNS_SUBDOMAIN_PATTERN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/** An RFC 1123 DNS label: the names of namespaces. */
export const DNS_LABEL_PATTERN = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/;

/** An RFC 1123 DNS subdomain: names of most Kubernetes objects. */
export const dnsSubdomainSchema = z.string().min(1).max(253).regex(DNS_SUBDOMAIN_PATTERN, 'expected a lowercase DNS subdomain');

export const ownerReferenceSchema = z.looseObject({
  apiVersion: z.string(),
  kind: z.string(),
  name: z.string(),
  uid: z.string(),
  controller: z.boolean().optional(),
  blockOwnerDeletion: z.boolean().optional(),
});

export const objectMetaSchema = z.looseObject({
  name: z.string(),
  namespace: z.string().optional(),
  uid: z.string().optional(),
  resourceVersion: z.string().optional(),
  generation: z.int().optional(),
  creationTimestamp: z.string().optional(),
  deletionTimestamp: z.string().optional(),
  labels: z.record(z.string(), z.string()).optional(),
  annotations: z.record(z.string(), z.string()).optional(),
  ownerReferences: z.array(ownerReferenceSchema).optional(),
  finalizers: z.array(z.string()).optional(),
});
export type ObjectMeta = z.infer<typeof objectMetaSchema>;
