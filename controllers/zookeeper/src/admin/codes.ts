// ZooKeeper C client return codes (zookeeper.h ZOO_ERRORS) that the admin client distinguishes.
export const ZOO_CODES = {
  ZOK: 0,
  ZSYSTEMERROR: -1,
  ZRUNTIMEINCONSISTENCY: -2,
  ZDATAINCONSISTENCY: -3,
  ZCONNECTIONLOSS: -4,
  ZMARSHALLINGERROR: -5,
  ZUNIMPLEMENTED: -6,
  ZOPERATIONTIMEOUT: -7,
  ZBADARGUMENTS: -8,
  ZINVALIDSTATE: -9,
  ZNEWCONFIGNOQUORUM: -13,
  ZRECONFIGINPROGRESS: -14,
  ZAPIERROR: -100,
  ZNONODE: -101,
  ZNOAUTH: -102,
  ZBADVERSION: -103,
  ZNOCHILDRENFOREPHEMERALS: -108,
  ZNODEEXISTS: -110,
  ZNOTEMPTY: -111,
  ZSESSIONEXPIRED: -112,
  ZINVALIDCALLBACK: -113,
  ZINVALIDACL: -114,
  ZAUTHFAILED: -115,
  ZCLOSING: -116,
  ZNOTHING: -117,
  ZSESSIONMOVED: -118,
  ZNOTREADONLY: -119,
  ZEPHEMERALONLOCALSESSION: -120,
  ZNOWATCHER: -121,
  ZRECONFIGDISABLED: -123,
  ZSESSIONCLOSEDREQUIRESASLAUTH: -124,
  ZTHROTTLEDOP: -127,
} as const;

export type ZooCodeName = keyof typeof ZOO_CODES;

/** Codes that say the session or connection is unusable, as opposed to the operation being refused. */
const CONNECTION_CODES: ReadonlySet<number> = new Set([
  ZOO_CODES.ZCONNECTIONLOSS,
  ZOO_CODES.ZOPERATIONTIMEOUT,
  ZOO_CODES.ZINVALIDSTATE,
  ZOO_CODES.ZSESSIONEXPIRED,
  ZOO_CODES.ZCLOSING,
  ZOO_CODES.ZSESSIONMOVED,
  ZOO_CODES.ZAUTHFAILED,
]);

export function isConnectionCode(code: number): boolean {
  return CONNECTION_CODES.has(code);
}

export function codeName(code: number): string {
  const entry = Object.entries(ZOO_CODES).find(([, value]) => value === code);
  return entry === undefined ? `code ${code}` : entry[0];
}
