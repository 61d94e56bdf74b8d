// The names this controller goes by, one per role. Each keeps its value: each is remembered outside the process
// (managed fields, the leader Lease, logs and dashboards), so a new value would break an upgrade.

/** Its name in logs. */
export const CONTROLLER_NAME = 'zk-oam-appconfig';

/** Field manager of its writes: what it renders, the status it reports, the scope references and finalizers it patches. */
export const FIELD_MANAGER = 'zk-oam-appconfig';

/** The Lease its replicas elect their leader by. */
export const LEADER_ELECTION_LEASE = 'zk-oam-appconfig';

/** The reportingController of the Events it records. */
export const REPORTING_CONTROLLER = 'core.oam.dev/appconfig';
