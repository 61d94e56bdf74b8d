// The users Secret read into SASL users, each unusable Secret a problem that names the key but never the password,
// and the JAAS Server section the members read them from.
import { describe, expect, it } from 'vitest';
import { jaasServerSection, readSaslUsers } from './users.js';

const encoded = (data: Record<string, string | Buffer>): Record<string, string> =>
  Object.fromEntries(Object.entries(data).map(([key, value]) => [key, Buffer.from(value).toString('base64')]));

describe('readSaslUsers', () => {
  it('reads every key as a user and its value as the password, sorted by name', () => {
    expect(readSaslUsers(encoded({ bob: 'b-pass', alice: "it's $5 & more" }))).toEqual({
      ok: true,
      users: [
        { name: 'alice', password: "it's $5 & more" },
        { name: 'bob', password: 'b-pass' },
      ],
    });
  });

  it.each([
    ['no key at all', {}, 'holds no user: add one key per user, the password as its value'],
    ['a key starting with a dot', { '.alice': 'x' }, 'has the key ".alice", which is not a user name (1 to 128 letters, digits, ".", "_" or "-", starting with a letter or digit)'],
    ['a key too long for a user name', { ['a'.repeat(129)]: 'x' }, `has the key "${'a'.repeat(129)}", which is not a user name`],
    ['an empty password', { alice: '' }, 'has an unusable password for user "alice": it is empty'],
    ['a password that is not UTF-8', { alice: Buffer.from([0xff, 0xfe]) }, 'has an unusable password for user "alice": it is not UTF-8 text'],
    ['a double quote', { alice: 'pa"ss' }, 'has an unusable password for user "alice": it holds a double quote, a backslash, "${", a line break or another control character, which a JAAS file cannot carry'],
    ['a backslash', { alice: 'pa\\ss' }, 'has an unusable password for user "alice": it holds a double quote'],
    ['a line break', { alice: 'pass\n' }, 'has an unusable password for user "alice": it holds a double quote'],
    ['a tab', { alice: 'pa\tss' }, 'has an unusable password for user "alice": it holds a double quote'],
    ['a system property the JVM would expand', { alice: 'x${user.name}' }, 'has an unusable password for user "alice": it holds a double quote'],
  ])('refuses %s, naming the key and never the password', (_case, data, problem) => {
    const reading = readSaslUsers(encoded(data));
    expect(reading.ok).toBe(false);
    const text = reading.ok ? '' : reading.problem;
    expect(text).toContain(problem);
    for (const password of Object.values(data)) if (String(password).length > 0) expect(text).not.toContain(String(password));
  });
});

describe('jaasServerSection', () => {
  it('lists each user as a DigestLoginModule option user_<name>="<password>", the last one closing the entry', () => {
    expect(
      jaasServerSection([
        { name: 'alice', password: 'a-pass' },
        { name: 'bob', password: "b's $pass" },
      ]),
    ).toBe(['Server {', '  org.apache.zookeeper.server.auth.DigestLoginModule required', '  user_alice="a-pass"', `  user_bob="b's $pass";`, '};', ''].join('\n'));
  });

  it('closes the entry after a single user', () => {
    expect(jaasServerSection([{ name: 'alice', password: 'a' }])).toBe('Server {\n  org.apache.zookeeper.server.auth.DigestLoginModule required\n  user_alice="a";\n};\n');
  });
});
