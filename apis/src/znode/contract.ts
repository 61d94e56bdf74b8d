// What a ZookeeperZnode gives its tenant and what clients read: the generated path and SASL user, and the keys of the
// discovery ConfigMap and Secret (both named after the object). One fact, one name: the controller, the tests and the
// definitions read them from here.

/** The path of a znode that names none: unique for the object's life, and never reused by another object. */
export function defaultZnodePath(uid: string): string {
  return `/znode-${uid}`;
}

/** The SASL user of a znode on a workload with SASL: a JAAS option name `user_<name>` and an ACL id `sasl:<name>` carry it as is. */
export function znodeSaslUser(uid: string): string {
  return `znode-${uid}`;
}

/** The discovery ConfigMap and Secret are named after the ZookeeperZnode. */
export function discoveryNames(znode: string): { configMap: string; secret: string } {
  return { configMap: znode, secret: znode };
}

/**
 * Keys of the discovery ConfigMap. ZOOKEEPER is the connect string with the path as chroot (what Kafka's
 * zookeeper.connect takes); HOSTS and CHROOT are its two halves; the ports say what the client Service serves; the CA
 * (PEM) is there when the members serve TLS.
 */
export const DISCOVERY_CONFIG_KEYS = {
  connectString: 'ZOOKEEPER',
  hosts: 'ZOOKEEPER_HOSTS',
  chroot: 'ZOOKEEPER_CHROOT',
  clientPort: 'ZOOKEEPER_CLIENT_PORT',
  secureClientPort: 'ZOOKEEPER_SECURE_CLIENT_PORT',
  tls: 'ZOOKEEPER_TLS',
  ca: 'ca.crt',
} as const;

/**
 * Keys of the discovery Secret, when the workload authenticates clients with SASL: the user and password, and a JAAS
 * file with the Client section ZooKeeper's Java client logs in with (`-Djava.security.auth.login.config=<file>`).
 */
export const DISCOVERY_SECRET_KEYS = {
  saslUser: 'ZOOKEEPER_SASL_USERNAME',
  saslPassword: 'ZOOKEEPER_SASL_PASSWORD',
  jaas: 'jaas.conf',
} as const;
