// JVM options for the bed's short-lived JVMs of Debian's ZooKeeper (pod members, local ensembles, zkCli, the TLS
// writer): hundreds of them start on two cores per run, so start-up CPU is what they are tuned for.

/**
 * Chosen with `npm run bench:jvm` (figures in the commit that added it). Only flags that a later option overrides: in a
 * pod they come first in JDK_JAVA_OPTIONS, and the pod's own command line follows. So no garbage collector is chosen
 * here (beside C1 and the archive, -XX:+UseSerialGC saved nothing beyond the noise): with the one a user's jvm.extraOptions picks,
 * the JVM would refuse to start ("Multiple garbage collectors selected"). Heap, stack, compiler-thread and perf-data
 * flags saved nothing either.
 */
export const SHORT_LIVED_JVM_FLAGS: readonly string[] = [
  // C2 compiles for minutes to pay off over hours; these JVMs live for seconds to minutes.
  '-XX:TieredStopAtLevel=1',
];

/**
 * Uses the class-data sharing archive. A JVM that cannot use it (made for another Java or jar set) starts without it;
 * its warning goes to stderr, not stdout, which the start script and tests read.
 */
export function sharedArchiveOptions(archive: string): string[] {
  return [`-XX:SharedArchiveFile=${archive}`, '-Xlog:cds*=off', '-Xlog:cds*=warning:stderr'];
}

export function shortLivedJvmOptions(archive: string | undefined): string[] {
  return [...SHORT_LIVED_JVM_FLAGS, ...(archive === undefined ? [] : sharedArchiveOptions(archive))];
}
