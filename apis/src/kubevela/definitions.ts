// KubeVela definitions for the ZooKeeper kinds: ComponentDefinitions `zookeeper` and `zookeeper-znode` and
// TraitDefinitions `zookeeper-scale`, `zookeeper-rolling` and `zookeeper-backup` (core.oam.dev/v1beta1), whose CUE templates render our CRs
// and whose parameter blocks are generated from the same zod schemas as the CRDs, so the two cannot drift; pure.
import { z } from 'zod';
import { ZOOKEEPER_BACKUP } from '../backup/kind.js';
import { backupSpecSchema } from '../backup/spec.js';
import { dnsSubdomainSchema } from '../common/object-meta.js';
import { structuralSchema } from '../crd/structural-schema.js';
import { rollingSpecSchema } from '../rolling/spec.js';
import { scaleSpecSchema } from '../scale/spec.js';
import { ZOOKEEPER_ROLLING } from '../rolling/kind.js';
import { ZOOKEEPER_SCALE } from '../scale/kind.js';
import { workloadSpecSchema } from '../workload/spec.js';
import { ZOOKEEPER_WORKLOAD } from '../workload/kind.js';
import { ZOOKEEPER_ZNODE } from '../znode/kind.js';
import { znodeSpecSchema } from '../znode/spec.js';
import { parameterBlock, usesStrings } from './cue-schema.js';

const KUBEVELA_API_VERSION = 'core.oam.dev/v1beta1';
const COMPONENT_TYPE = 'zookeeper';
const SCALE_TRAIT_TYPE = 'zookeeper-scale';
const ROLLING_TRAIT_TYPE = 'zookeeper-rolling';
const ZNODE_COMPONENT_TYPE = 'zookeeper-znode';
const BACKUP_TRAIT_TYPE = 'zookeeper-backup';

export interface KubeVelaDefinition {
  readonly apiVersion: typeof KUBEVELA_API_VERSION;
  readonly kind: 'ComponentDefinition' | 'TraitDefinition';
  readonly metadata: { readonly name: string; readonly annotations: Readonly<Record<string, string>> };
  readonly spec: Readonly<Record<string, unknown>>;
}

function template(body: string, parameter: string): string {
  const head = usesStrings(parameter) ? 'import "strings"\n\n' : '';
  return `${head}${body}\n${parameter}\n`;
}

/** The CUE of a rendered object's status, at `path`: `_ready` (its Ready condition, [] until reported) and `_phase`. */
function readStatus(path: string): string {
  return `_conditions: *[] | [...]
_phase: *"Pending" | string
if ${path}.status != _|_ if ${path}.status.conditions != _|_ {
	_conditions: ${path}.status.conditions
}
_ready: [for c in _conditions if c.type == "Ready" {c}]
if ${path}.status != _|_ if ${path}.status.phase != _|_ {
	_phase: ${path}.status.phase
}
if ${path}.status != _|_ if ${path}.status.phase == _|_ if len(_ready) > 0 {
	_phase: _ready[0].reason
}`;
}

/**
 * Every kind reports a Ready condition (the workload: quorum and every member synced; the traits: at target, or
 * blocked with the reason; a znode: its path served), so `vela status` says healthy when it is True, and the phase (a
 * znode has none: the Ready reason) and its message.
 */
function statusOf(path: string): Record<string, string> {
  return {
    healthPolicy: `${readStatus(path)}
isHealth: *false | bool
if len(_ready) > 0 {
	isHealth: _ready[0].status == "True"
}
`,
    customStatus: `${readStatus(path)}
message: *_phase | string
if len(_ready) > 0 if _ready[0].message != _|_ {
	message: _phase + ": " + _ready[0].message
}
`,
  };
}

// The size belongs to the scale trait (which owns spec.replicas of a bound workload), as in deploy/samples/component.yaml.
const COMPONENT_OMITS: ReadonlySet<string> = new Set(['replicas']);
// workloadRef is filled in from the component the trait is attached to.
const TRAIT_OMITS: ReadonlySet<string> = new Set(['workloadRef']);

function componentDefinition(): KubeVelaDefinition {
  const parameter = parameterBlock(structuralSchema(workloadSpecSchema, 'spec'), COMPONENT_OMITS);
  const output = `output: {
	apiVersion: ${JSON.stringify(ZOOKEEPER_WORKLOAD.apiVersion)}
	kind:       ${JSON.stringify(ZOOKEEPER_WORKLOAD.kind)}
	spec:       parameter
}`;
  return {
    apiVersion: KUBEVELA_API_VERSION,
    kind: 'ComponentDefinition',
    metadata: {
      name: COMPONENT_TYPE,
      annotations: { 'definition.oam.dev/description': 'A ZooKeeper ensemble run by the zk-oam workload controller; size it with the zookeeper-scale trait.' },
    },
    spec: {
      workload: { definition: { apiVersion: ZOOKEEPER_WORKLOAD.apiVersion, kind: ZOOKEEPER_WORKLOAD.kind } },
      status: statusOf('context.output'),
      schematic: { cue: { template: template(output, parameter) } },
    },
  };
}

/**
 * A tenant's path as a component of its own, beside the zookeeper component it lives in and the application that uses
 * it: `zookeeper` names that component (its ZookeeperWorkload), and the tenant's application reads the discovery
 * ConfigMap and Secret named after this component.
 */
const znodeParameters = z.object({
  zookeeper: dnsSubdomainSchema.describe('Name of the zookeeper component (its ZookeeperWorkload) in the same namespace.'),
  path: znodeSpecSchema.shape.path,
  principal: znodeSpecSchema.shape.principal,
  reclaimPolicy: znodeSpecSchema.shape.reclaimPolicy,
});

function znodeComponentDefinition(): KubeVelaDefinition {
  const parameter = parameterBlock(structuralSchema(znodeParameters, 'parameter'));
  const output = `output: {
	apiVersion: ${JSON.stringify(ZOOKEEPER_ZNODE.apiVersion)}
	kind:       ${JSON.stringify(ZOOKEEPER_ZNODE.kind)}
	spec: {
		workloadRef: name: parameter.zookeeper
		if parameter.path != _|_ {
			path: parameter.path
		}
		if parameter.principal != _|_ {
			principal: parameter.principal
		}
		reclaimPolicy: parameter.reclaimPolicy
	}
}`;
  return {
    apiVersion: KUBEVELA_API_VERSION,
    kind: 'ComponentDefinition',
    metadata: {
      name: ZNODE_COMPONENT_TYPE,
      annotations: {
        'definition.oam.dev/description':
          'A tenant\'s path in a zookeeper component, with its own principal (a SASL user, or the subject of its client certificate) and a discovery ConfigMap and Secret named after it (zk-oam znode controller).',
      },
    },
    spec: {
      workload: { definition: { apiVersion: ZOOKEEPER_ZNODE.apiVersion, kind: ZOOKEEPER_ZNODE.kind } },
      status: statusOf('context.output'),
      schematic: { cue: { template: template(output, parameter) } },
    },
  };
}

interface TraitSpec {
  readonly name: string;
  readonly description: string;
  readonly output: string;
  readonly kind: { readonly apiVersion: string; readonly kind: string };
  readonly parameter: string;
}

/**
 * KubeVela's controller does not enforce appliesToWorkloads (only its CLI and UI read it), so the template refuses any
 * other workload itself, through KubeVela's `errs` field, which fails the render with KubeVela's own
 * "validation failed for trait" message and leaves the trait unapplied.
 */
function wrongWorkloadError(trait: TraitSpec): string {
  const expected = `${ZOOKEEPER_WORKLOAD.apiVersion}, Kind=${ZOOKEEPER_WORKLOAD.kind}`;
  return `errs: [if context.output.apiVersion != ${JSON.stringify(ZOOKEEPER_WORKLOAD.apiVersion)} || context.output.kind != ${JSON.stringify(ZOOKEEPER_WORKLOAD.kind)} {
	"${trait.name} applies to ${COMPONENT_TYPE} components (${expected}), not to component " + context.name + ", which renders " + context.output.apiVersion + ", Kind=" + context.output.kind
}]`;
}

function traitDefinition(trait: TraitSpec): KubeVelaDefinition {
  const output = `${wrongWorkloadError(trait)}
outputs: ${trait.output}: {
	apiVersion: ${JSON.stringify(trait.kind.apiVersion)}
	kind:       ${JSON.stringify(trait.kind.kind)}
	metadata: name: context.name + "-${trait.output}"
	spec: {
		parameter
		workloadRef: {
			apiVersion: ${JSON.stringify(ZOOKEEPER_WORKLOAD.apiVersion)}
			kind:       ${JSON.stringify(ZOOKEEPER_WORKLOAD.kind)}
			name:       context.name
		}
	}
}`;
  return {
    apiVersion: KUBEVELA_API_VERSION,
    kind: 'TraitDefinition',
    metadata: { name: trait.name, annotations: { 'definition.oam.dev/description': trait.description } },
    spec: {
      appliesToWorkloads: [COMPONENT_TYPE, `${ZOOKEEPER_WORKLOAD.plural}.${ZOOKEEPER_WORKLOAD.group}`],
      podDisruptive: false,
      status: statusOf(`context.outputs.${trait.output}`),
      schematic: { cue: { template: template(output, trait.parameter) } },
    },
  };
}

export function kubeVelaDefinitions(): KubeVelaDefinition[] {
  return [
    componentDefinition(),
    traitDefinition({
      name: SCALE_TRAIT_TYPE,
      description: 'Scales a zookeeper component one member at a time with dynamic reconfiguration (zk-oam scale controller).',
      output: 'scale',
      kind: ZOOKEEPER_SCALE,
      parameter: parameterBlock(structuralSchema(scaleSpecSchema, 'spec'), TRAIT_OMITS),
    }),
    traitDefinition({
      name: ROLLING_TRAIT_TYPE,
      description: 'Restarts the members of a zookeeper component followers first, the leader last (zk-oam rolling controller).',
      output: 'rolling',
      kind: ZOOKEEPER_ROLLING,
      parameter: parameterBlock(structuralSchema(rollingSpecSchema, 'spec'), TRAIT_OMITS),
    }),
    znodeComponentDefinition(),
    traitDefinition({
      name: BACKUP_TRAIT_TYPE,
      description: 'Backs up the persistent znodes of a zookeeper component to S3, on a cron schedule or once, with retention (zk-oam backup controller).',
      output: 'backup',
      kind: ZOOKEEPER_BACKUP,
      parameter: parameterBlock(structuralSchema(backupSpecSchema, 'spec'), TRAIT_OMITS),
    }),
  ];
}
