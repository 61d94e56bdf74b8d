// Names of the ZookeeperRolling trait kind.
import { kindInfo } from '../common/kind.js';

export const ZOOKEEPER_ROLLING = kindInfo({
  group: 'rolling.zookeeper.zkoam.dev',
  version: 'v1alpha1',
  kind: 'ZookeeperRolling',
  plural: 'zookeeperrollings',
  singular: 'zookeeperrolling',
  shortNames: ['zkr'],
  categories: ['zookeeper', 'oam'],
});
