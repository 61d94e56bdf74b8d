// Step: read. The bound workload, parsed once with the API's zod schema (the trait itself is read by the kit's readTrait).
import { zookeeperWorkloadSchema, type ResourceValidationError, type ZookeeperWorkload } from '@zk-oam/apis';
import { formatKey, keyOf, parseObject, type KubeObject } from '@zk-oam/runtime';

/** The bound workload parsed; a workload that does not validate is its own controller's to report. */
export function parseWorkload(raw: KubeObject): ZookeeperWorkload | ResourceValidationError {
  return parseObject(zookeeperWorkloadSchema, raw, `ZookeeperWorkload ${formatKey(keyOf(raw))}`);
}
