// Names of the ZookeeperZnode kind: a tenant's path in an ensemble, with its own credentials and discovery objects.
import { kindInfo } from '../common/kind.js';

export const ZOOKEEPER_ZNODE = kindInfo({
  group: 'znode.zookeeper.zkoam.dev',
  version: 'v1alpha1',
  kind: 'ZookeeperZnode',
  plural: 'zookeeperznodes',
  singular: 'zookeeperznode',
  shortNames: ['zkz'],
  categories: ['zookeeper'],
});
