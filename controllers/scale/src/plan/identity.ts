// Who a member is: the StatefulSet pod `<name>-<ordinal>` runs ZooKeeper server myid = ordinal + 1.
export function myidOf(ordinal: number): number {
  return ordinal + 1;
}

export function ordinalOf(myid: number): number {
  return myid - 1;
}

export function podOf(statefulSet: string, myid: number): string {
  return `${statefulSet}-${ordinalOf(myid)}`;
}

/** "member 3 (pod zk-2)": how every plan message names a member. */
export function memberOf(statefulSet: string, myid: number): string {
  return `member ${myid} (pod ${podOf(statefulSet, myid)})`;
}

export function listMembers(statefulSet: string, myids: readonly number[]): string {
  return myids.map((myid) => memberOf(statefulSet, myid)).join(', ');
}
