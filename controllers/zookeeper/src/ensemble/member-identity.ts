// Who a pod is in the ensemble: a StatefulSet pod `<name>-<ordinal>` runs ZooKeeper server myid = ordinal + 1 (the start script writes it).
const ORDINAL_SUFFIX = /-(\d+)$/;

/** ZooKeeper ids are 1..255; the ordinal suffix of a pod name gives myid, or undefined when the name has none. */
export function myidOfPod(podName: string): number | undefined {
  const digits = ORDINAL_SUFFIX.exec(podName)?.[1];
  if (digits === undefined) {
    return undefined;
  }
  const myid = Number(digits) + 1;
  return myid <= 255 ? myid : undefined;
}

/** The pod a member runs in, for members known only from the committed config (their pod may be gone). */
export function podOfMember(statefulSetName: string, myid: number): string {
  return `${statefulSetName}-${myid - 1}`;
}

/** "zk-1 (myid 2, 10.0.0.2)": how every status message and Event names a member. */
export function memberName(member: { pod: string; myid: number; ip?: string | undefined }): string {
  const ip = member.ip === undefined || member.ip === '' ? '' : `, ${member.ip}`;
  return `${member.pod} (myid ${member.myid}${ip})`;
}
