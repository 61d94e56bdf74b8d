// The original OAM runtime's own end-to-end suite (oam-kubernetes-runtime v0.3.3, test/e2e-test, built from its Go
// module) against our appconfig controller on the bed: the controller runs with only its deploy/appconfig RBAC plus the
// ClusterRoles a user adds for the suite's kinds; the module's ContainerizedWorkload, ManualScalerTrait and HealthScope
// controllers run beside it, as the module builds them, without its own ApplicationConfiguration controller. Each spec
// runs on its own (ginkgo focus), so each passes or fails here by name.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installOam, kubectl, startControllerProcess, stopCleanly, waitControllerReady, type ControllerProcess } from '../src/controllers/index.js';
import type { LoggedProcess } from '../src/controllers/logged-process.js';
import { oamRuntimeSuiteDir, runSuite, startRuntimeControllers } from '../src/controllers/oam-runtime-suite.js';
import { workerBed } from '../src/worker-bed.js';

const bed = workerBed();
const SUITE_TIMEOUT_MS = 16 * 60_000;

/** The suite's 11 specs (It texts, with the file each is in); the dry run below checks there are no others. */
const SPECS = [
  ['appconfig_finalizer_test.go', 'should not register finalizer'],
  ['appconfig_finalizer_test.go', 'should handle finalizer before being deleted'],
  ['component_version_test.go', 'should create corresponding ControllerRevision'],
  ['component_version_test.go', 'should NOT create NOR update workloads, when update components'],
  ['component_version_test.go', 'should update workloads with new revision of components, when update components'],
  ['component_version_test.go', 'should create workloads with name of revision and keep the old revision'],
  ['component_version_test.go', 'should create workloads with name of component and replace the old revision'],
  ['containerized_workload_test.go', 'apply an application config'],
  ['containerized_workload_test.go', 'checking appConfig status changed outside of the controller loop is preserved'],
  ['health_scope_test.go', 'Test an application config with health scope'],
  ['kubernetes_workload_test.go', 'use deployment workload'],
] as const;

/**
 * What a user of v0.3.3 installs besides the runtime: the HealthScope's ScopeDefinition (its chart's), and RBAC for the
 * kinds the specs render. Ours aggregates roles labelled oam.zkoam.dev/aggregate-to-appconfig; the suite labels its
 * own role (example.com) rbac.oam.dev/aggregate-to-controller, as v0.3.3's did, so one role carries those over.
 */
const HARNESS = `
apiVersion: core.oam.dev/v1alpha2
kind: ScopeDefinition
metadata: { name: healthscopes.core.oam.dev }
spec: { workloadRefsPath: spec.workloadRefs, allowComponentOverlap: true, definitionRef: { name: healthscope.core.oam.dev } }
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: oam-e2e-appconfig-kinds
  labels: { oam.zkoam.dev/aggregate-to-appconfig: "true" }
rules:
  - { apiGroups: [core.oam.dev], resources: [containerizedworkloads, manualscalertraits], verbs: [get, create, patch, delete] }
  - { apiGroups: [core.oam.dev], resources: [healthscopes], verbs: [get, patch] }
  - { apiGroups: [apps], resources: [deployments], verbs: [get, create, patch, delete] }
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: oam-e2e-appconfig-v0.3.3-roles
  labels: { oam.zkoam.dev/aggregate-to-appconfig: "true" }
aggregationRule:
  clusterRoleSelectors: [{ matchLabels: { rbac.oam.dev/aggregate-to-controller: "true" } }]
`;

/** What a run leaves when it stops before its AfterSuite, which BeforeSuite would trip over. */
const LEFTOVERS = ['clusterrolebinding/oam-role-binding', 'crd/bars.example.com'];

let suiteDir = '';
let appconfig: ControllerProcess | undefined;
let runtimeControllers: LoggedProcess | undefined;

async function runFocused(file: string, spec: string): Promise<string> {
  await kubectl(bed, ['delete', '--ignore-not-found', '--wait=true', ...LEFTOVERS]);
  // The previous run's AfterSuite deleted the WorkloadDefinition and TraitDefinition CRDs.
  await installOam(bed);
  const { code, stdout, stderr } = await runSuite(bed, suiteDir, [`-ginkgo.focus=${spec}`]);
  const output = `${stdout}\n${stderr}`;
  await writeFile(join(bed.dir, 'logs', `oam-e2e-${file.replace('.go', '')}-${spec.replaceAll(/\W+/g, '-')}.log`), output);
  expect(output, 'exactly one spec ran').toMatch(/Ran 1 of 11 Specs/);
  expect(code, output.slice(-6000)).toBe(0);
  return output;
}

describe("oam-kubernetes-runtime v0.3.3's e2e suite against the appconfig controller", () => {
  beforeAll(async () => {
    suiteDir = oamRuntimeSuiteDir();
    await installOam(bed);
    await kubectl(bed, ['apply', '--server-side', '-f', join(suiteDir, 'crds')]);
    await kubectl(bed, ['wait', '--for=condition=Established', '--timeout=60s', '-f', join(suiteDir, 'crds')]);
    await kubectl(bed, ['apply', '--server-side', '-f', '-'], HARNESS);
    appconfig = await startControllerProcess({ bed, name: 'appconfig', env: { WAIT_PERIOD_MS: '2000', DISCOVERY_TTL_MS: '1000', DEPENDENCY_CHECK_PERIOD_MS: '1000' } });
    await waitControllerReady(appconfig);
    runtimeControllers = await startRuntimeControllers(bed, suiteDir);
  }, 20 * 60_000);

  afterAll(async () => {
    await runtimeControllers?.stop();
    await stopCleanly(appconfig);
    await kubectl(bed, ['delete', '--ignore-not-found', ...LEFTOVERS, 'clusterrole/oam-e2e-appconfig-kinds', 'clusterrole/oam-e2e-appconfig-v0.3.3-roles', 'clusterrole/oam-example-com']);
    await kubectl(bed, ['delete', '--ignore-not-found', '-f', join(suiteDir, 'crds')]);
    // Left as the other tests expect them: the suite's AfterSuite deletes two of the OAM CRDs.
    await installOam(bed);
  }, 5 * 60_000);

  it('has exactly the 11 specs run below', async () => {
    const { stdout } = await runSuite(bed, suiteDir, ['-ginkgo.dryRun']);
    expect(stdout).toMatch(/Ran 11 of 11 Specs/);
    for (const [, spec] of SPECS) expect(stdout).toContain(spec);
  });

  it.each(SPECS)('%s: %s', async (file, spec) => {
    await runFocused(file, spec);
  }, SUITE_TIMEOUT_MS);
});
