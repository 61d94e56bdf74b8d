// Names of the ZookeeperBackup kind: an ensemble's data saved to object storage, on a schedule or once.
import { kindInfo } from '../common/kind.js';

export const ZOOKEEPER_BACKUP = kindInfo({
  group: 'backup.zookeeper.zkoam.dev',
  version: 'v1alpha1',
  kind: 'ZookeeperBackup',
  plural: 'zookeeperbackups',
  singular: 'zookeeperbackup',
  shortNames: ['zkb'],
  categories: ['zookeeper'],
});
