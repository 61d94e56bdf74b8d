// Names of the ZookeeperWorkload kind.
import { kindInfo } from '../common/kind.js';

export const ZOOKEEPER_WORKLOAD = kindInfo({
  group: 'workload.zookeeper.zkoam.dev',
  version: 'v1alpha1',
  kind: 'ZookeeperWorkload',
  plural: 'zookeeperworkloads',
  singular: 'zookeeperworkload',
  shortNames: ['zkw'],
  categories: ['zookeeper', 'oam'],
});
