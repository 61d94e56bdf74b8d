// How plan messages name a member known by its myid: the contract's member name, with the pod it runs in.
import { memberName, podOfMember } from '@zk-oam/apis';

export function memberOf(statefulSet: string, myid: number): string {
  return memberName({ pod: podOfMember(statefulSet, myid), myid });
}

export function listMembers(statefulSet: string, myids: readonly number[]): string {
  return myids.map((myid) => memberOf(statefulSet, myid)).join(', ');
}
