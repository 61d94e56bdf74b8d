// Test helpers of the ZooKeeper package (`@zk-oam/zookeeper/testing`): member observations as ZooKeeper answers them.
export {
  answeringMember,
  mntrText,
  notServingMember,
  srvrText,
  type LeaderSyncCounts,
  type MemberAnswers,
  type ZabPhase,
} from './answers.js';
export { committed, follower, ipOf, leader, notServing, observer, server, THREE_VOTERS } from './ensemble.js';
