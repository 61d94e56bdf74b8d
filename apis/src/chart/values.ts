// The Helm chart's values (charts/zk-oam/values.yaml), as a zod schema: charts/zk-oam/values.schema.json is generated
// from it, so Helm refuses a bad value (a typo, a wrong type, a memory limit the heap cannot be derived from) with the
// field's name before anything is installed.
import { z } from 'zod';
import { DNS_LABEL_PATTERN, dnsSubdomainSchema } from '../common/object-meta.js';
import { podSecurityContextSchema, tolerationSchema } from '../workload/placement.js';

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

const quantity = z.union([z.string().regex(/^[0-9]+(\.[0-9]+)?(m|[KMGTPE]i?)?$/), z.number().min(0)]);

const pullPolicy = z.enum(['', 'Always', 'IfNotPresent', 'Never']);

const image = z.strictObject({
  repository: z.string().min(1).describe('Under global.image.registry; a whole image name when that is empty.'),
  tag: z.string().describe("Empty: the chart's appVersion."),
  pullPolicy: pullPolicy.describe('Empty: global.image.pullPolicy.'),
});

const stringMap = z.record(z.string().min(1), z.string());

const containerSecurityContext = z.strictObject({
  allowPrivilegeEscalation: z.boolean().optional(),
  privileged: z.boolean().optional(),
  readOnlyRootFilesystem: z.boolean().optional(),
  runAsNonRoot: z.boolean().optional(),
  runAsUser: z.int().min(0).optional(),
  runAsGroup: z.int().min(0).optional(),
  capabilities: z.strictObject({ add: z.array(z.string().min(1)).optional(), drop: z.array(z.string().min(1)).optional() }).optional(),
  seccompProfile: podSecurityContextSchema.shape.seccompProfile,
});

/**
 * Where a deployable's pods run and as whom: global's are the defaults, a deployable's own override them (maps merged
 * key by key, the rest replaced when set). The kinds of affinity are checked by name, what is inside them by the
 * apiserver.
 */
const podSettings = {
  nodeSelector: stringMap.describe("Node labels the pods' nodes must have."),
  tolerations: z.array(tolerationSchema).describe('Taints the pods tolerate.'),
  affinity: z
    .strictObject({ nodeAffinity: z.looseObject({}).optional(), podAffinity: z.looseObject({}).optional(), podAntiAffinity: z.looseObject({}).optional() })
    .describe('A core/v1 Affinity.'),
  podAnnotations: stringMap.describe('Annotations on the pods.'),
  podLabels: stringMap.describe('Labels on the pods, beside the selector labels (which they cannot change).'),
  priorityClassName: z.union([z.literal(''), dnsSubdomainSchema]).describe("The pods' PriorityClass; empty: none."),
  podSecurityContext: podSecurityContextSchema.describe("The pods' securityContext."),
  securityContext: containerSecurityContext.describe("The container's securityContext."),
};

/** What every deployable gets unless its own values say otherwise. */
const globalValues = z
  .strictObject({
    image: z.strictObject({
      registry: z
        .string()
        .regex(/^([^/\s]+(\/[^/\s]+)*)?$/)
        .describe("Prefixed to every deployable's image.repository, with a slash; empty: each repository is a whole image name."),
      pullPolicy: pullPolicy.describe("Every deployable's imagePullPolicy; empty: Kubernetes' default."),
    }),
    imagePullSecrets: z
      .array(z.strictObject({ name: z.string().min(1) }))
      .describe('Secrets of the release namespace that every deployable pulls its image with.'),
    ...podSettings,
  })
  .describe('Defaults for every deployable (the controllers, the manager and the console).');

const resources = z.strictObject({
  requests: z.strictObject({ cpu: quantity.optional(), memory: quantity.optional() }).optional(),
  limits: z.strictObject({
    cpu: quantity.optional(),
    memory: z
      .string()
      .regex(/^[1-9][0-9]*Mi$/)
      .describe('In Mi: the Node heap is set to half of it.'),
  }),
});

const extraEnv = z
  .array(z.strictObject({ name: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/), value: z.string() }))
  .describe('More environment variables.');

/** How a deployable's pods run, the same for each controller and the console. */
const howItRuns = { image, logLevel: z.enum(LOG_LEVELS), resources, extraEnv, ...podSettings };

const controllerValues = z
  .strictObject({
    enabled: z.boolean().describe('Run this controller: in the manager (install: combined) or in a Deployment of its own.'),
    replicas: z.int().min(0).max(10).describe('Replicas; one leads, the others stand by.'),
    ...howItRuns,
  })
  .describe('One controller: whether it is installed, and how it runs.');

const managerValues = z
  .strictObject({
    replicas: z.int().min(0).max(10).describe('Replicas; in each controller one leads, the others stand by.'),
    ...howItRuns,
  })
  .describe('The manager (install: combined): every enabled controller in one Deployment, each under its own Lease.');

const consoleValues = z
  .strictObject({
    enabled: z.boolean().describe('Install the console: its REST API acts as each caller, so it gets no RBAC of its own.'),
    replicas: z.int().min(0).max(10).describe('Replicas; each serves alike (the console keeps no state).'),
    ...howItRuns,
    port: z.int().min(1024).max(65_535).describe("Port of the console's HTTP API, on the pod and its Service."),
  })
  .describe('The console (console/): whether it is installed, and how it runs.');

export const chartValuesSchema = z.strictObject({
  install: z.enum(['combined', 'separate']).describe('combined: the enabled controllers in one Deployment (manager); separate: a Deployment each.'),
  global: globalValues,
  manager: managerValues,
  workload: controllerValues,
  scale: controllerValues,
  rolling: controllerValues,
  appconfig: controllerValues,
  znode: controllerValues,
  backup: controllerValues,
  console: consoleValues,
  metrics: z.strictObject({ port: z.int().min(1024).max(65_535).describe('Port of /metrics, /healthz and /readyz.') }),
  watchNamespaces: z
    .array(z.string().regex(DNS_LABEL_PATTERN))
    .meta({ uniqueItems: true })
    .describe('Empty: every namespace. Namespace names: the controllers watch and act there alone.'),
  crds: z.strictObject({
    install: z.boolean().describe('Install the ZooKeeper CRDs with the release and upgrade them with it; false: they are managed elsewhere.'),
    keep: z.boolean().describe('Leave the CRDs, and every ZooKeeper object, in place when the release is uninstalled.'),
  }),
  nats: z.strictObject({
    existingSecret: z.string().min(1).describe('Secret with keys url, user and password; optional in the cluster.'),
    install: z.boolean().describe("Run the chart's own NATS server and write its Secret."),
    image: z.string().min(1).describe("The NATS server's image, with JetStream (2.2 or later)."),
    storage: quantity.describe("The NATS server's JetStream volume."),
  }),
});
export type ChartValues = z.infer<typeof chartValuesSchema>;

/** values.schema.json for Helm (JSON Schema draft 7). */
export function chartValuesJsonSchema(): string {
  return `${JSON.stringify(z.toJSONSchema(chartValuesSchema, { target: 'draft-7' }), null, 2)}\n`;
}
