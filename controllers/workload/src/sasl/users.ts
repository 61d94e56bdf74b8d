// The users Secret (spec.authentication.sasl.usersSecretRef) read into SASL users, or the first problem that makes it
// unusable. Pure. Problems name keys and character classes, never a password.

/** A user name as a JAAS option name `user_<name>` and an ACL id `sasl:<name>` both carry it: no quoting needed. */
const USER_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

/**
 * What a JAAS file cannot carry inside a double-quoted value: the quote ends it, a backslash escapes, a line break or
 * control character breaks the line, and `${` is expanded by the JVM as a system property (seen on ZooKeeper 3.8:
 * user_bob="x${user.name}y" accepted the password "xrooty").
 */
const UNUSABLE_PASSWORD = /["\\\u0000-\u001f\u007f]|\$\{/u;

export interface SaslUser {
  readonly name: string;
  readonly password: string;
}

export type UsersReading = { readonly ok: true; readonly users: readonly SaslUser[] } | { readonly ok: false; readonly problem: string };

/** Reads a Secret's data (base64 values by key), sorted by user name so that the same users render the same file. */
export function readSaslUsers(encodedData: Readonly<Record<string, string>>): UsersReading {
  const keys = Object.keys(encodedData).sort();
  if (keys.length === 0) return { ok: false, problem: 'holds no user: add one key per user, the password as its value' };
  const users: SaslUser[] = [];
  for (const key of keys) {
    if (!USER_NAME.test(key)) {
      return { ok: false, problem: `has the key "${key}", which is not a user name (1 to 128 letters, digits, ".", "_" or "-", starting with a letter or digit)` };
    }
    const password = passwordOf(encodedData[key] ?? '');
    if (typeof password !== 'string') return { ok: false, problem: `has an unusable password for user "${key}": ${password.problem}` };
    users.push({ name: key, password });
  }
  return { ok: true, users };
}

function passwordOf(encoded: string): string | { problem: string } {
  const bytes = Buffer.from(encoded, 'base64');
  const text = bytes.toString('utf8');
  if (text.length === 0) return { problem: 'it is empty' };
  if (!Buffer.from(text, 'utf8').equals(bytes)) return { problem: 'it is not UTF-8 text' };
  if (UNUSABLE_PASSWORD.test(text)) {
    return { problem: 'it holds a double quote, a backslash, "${", a line break or another control character, which a JAAS file cannot carry' };
  }
  return text;
}

/** The members' JAAS file: the Server section ZooKeeper's SASL DIGEST-MD5 authentication reads its users from. */
export function jaasServerSection(users: readonly SaslUser[]): string {
  const options = users.map((user) => `  user_${user.name}="${user.password}"`);
  return ['Server {', '  org.apache.zookeeper.server.auth.DigestLoginModule required', ...options.slice(0, -1), `${options.at(-1) ?? ''};`, '};', ''].join('\n');
}
