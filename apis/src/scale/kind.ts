// Names of the ZookeeperScale trait kind.
import { kindInfo } from '../common/kind.js';

export const ZOOKEEPER_SCALE = kindInfo({
  group: 'scale.zookeeper.zkoam.dev',
  version: 'v1alpha1',
  kind: 'ZookeeperScale',
  plural: 'zookeeperscales',
  singular: 'zookeeperscale',
  shortNames: ['zks'],
  categories: ['zookeeper', 'oam'],
});
