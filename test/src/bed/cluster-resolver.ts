// A program of the tests that resolves names as a pod does, through the bed's cluster DNS: run in a mount namespace of
// its own where /etc/resolv.conf is the bed's (a JVM, for one, asks no other resolver than the system's). The bed
// writes that file when it starts (<bed dir>/resolv.conf).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Writes the resolv.conf a program on the bed's host side resolves cluster names with; returns its path. */
export function writeClusterResolvConf(bedDir: string, dnsServiceIp: string): string {
  const file = join(bedDir, 'resolv.conf');
  writeFileSync(file, `search svc.cluster.local cluster.local\nnameserver ${dnsServiceIp}\noptions ndots:5\n`);
  return file;
}

/** `command args` run with `resolvConf` as its /etc/resolv.conf, through unshare (the bed runs as root). */
export function withClusterResolver(resolvConf: string, command: string, args: readonly string[]): { command: string; args: string[] } {
  return {
    command: 'unshare',
    args: ['--mount', '--propagation', 'private', '--', 'sh', '-c', 'mount --bind "$0" /etc/resolv.conf && exec "$@"', resolvConf, command, ...args],
  };
}
