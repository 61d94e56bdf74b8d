// Public surface of the ZooKeeper package: four-letter words, dynamic config, admin client, ensemble health.
export { fourLetterWord, type FourLetterWordOptions, type FourLetterWordTls } from './four-letter-words/client.js';
export {
  FourLetterWordConnectionError,
  FourLetterWordParseError,
  NotServingError,
  NotWhitelistedError,
  type FourLetterWord,
} from './four-letter-words/errors.js';
export { parseSrvr, SERVER_MODES, type ServerMode, type SrvrAnswer } from './four-letter-words/srvr.js';
export { parseMntr, type MntrAnswer } from './four-letter-words/mntr.js';
export { parseRuok } from './four-letter-words/ruok.js';
export { parseConf, type ConfAnswer } from './four-letter-words/conf.js';
export { formatZxid, parseZxid, zxidFromValue, ZxidParseError, type Zxid } from './zxid.js';
export { zxidLags, type MemberZxid, type ZxidLag } from './zxid-lag.js';
export {
  DynamicConfigParseError,
  formatServerLine,
  parseServerLine,
  type ServerEntry,
  type ServerRole,
} from './dynamic-config/server-line.js';
export { formatDynamicConfig, parseDynamicConfig, voters, type DynamicConfig } from './dynamic-config/config.js';
export { formatJoining, formatLeaving, isEmptyDelta, reconfigDelta, type ReconfigDelta } from './dynamic-config/delta.js';
export { superCredential, superDigest } from './admin/super-digest.js';
export {
  CONFIRM_ZNODE,
  ZooKeeperAdmin,
  type AdminClientOptions,
  type CommittedConfig,
  type ConfirmedWrite,
} from './admin/client.js';
export { ZooKeeperConnectionError, ZooKeeperOperationError } from './admin/errors.js';
export {
  connectEnsembleAdmin,
  unsettledBy,
  withAdminSession,
  type AdminSessionOutcome,
  type EnsembleAdmin,
} from './admin/ensemble-admin.js';
export { HandleGate } from './admin/handle-gate.js';
export {
  adminConnector,
  tenantAdminConnector,
  treeDumperConnector,
  treeRestorerConnector,
  type AdminConnector,
  type AdminTarget,
  type TenantAdminConnector,
  type TreeDumper,
  type TreeDumperConnector,
  type TreeRestorer,
  type TreeRestorerConnector,
} from './admin/connect-admin.js';
export * from './dump/index.js';
export * from './restore/index.js';
export type { AclEntry } from './wire/packets.js';
export { tenantAcl } from './tenant/acl.js';
export type { TenantAdmin } from './tenant/tenant-admin.js';
/** A raw session, for tools and tests that need more than the admin verbs (e.g. a client writing znodes). */
export { openSession, type Outcome, type Session, type SessionOptions } from './admin/session.js';
export { SEQUENCE_FLAG, type NativeHandle } from './admin/native.js';
export { ZOO_CODES, type ZooCodeName } from './admin/codes.js';
export { majorityAfter, quorumSize, toleratedFailures, type MajorityCheck } from './health/quorum.js';
export { describeFailure, memberLabel, type MemberObservation } from './health/observation.js';
export {
  assessEnsemble,
  type EnsembleAssessment,
  type Health,
  type MemberRole,
  type MemberStatus,
} from './health/ensemble.js';
export { observeMember, observeMembers, type MemberEndpoint } from './health/observe.js';
export { observeEnsemble, type MemberAccess, type MemberPod, type ObserveEnsembleOptions } from './ensemble/observe-ensemble.js';
export { readCommittedConfig, readConfOverTcp, UnversionedConfigError, type ConfReader, type EnsembleTls } from './ensemble/committed-config.js';
export type { CommittedConfigReading, EnsembleObservation, ObservedPod } from './ensemble/ensemble-observation.js';
export { CommittedConfigReadError, NoServingMemberError, PodWithoutIpError } from './ensemble/errors.js';
