// The name this controller writes under: its server-side apply field manager, Lease and Event reporter.
export const FIELD_MANAGER = 'zk-oam-appconfig';

/** The reportingController of the Events it records. */
export const REPORTING_CONTROLLER = 'core.oam.dev/appconfig';
