// Quorum arithmetic for majority quorums, and the safety check every membership step must pass (invariant 1).
export function quorumSize(voters: number): number {
  return Math.floor(voters / 2) + 1;
}

/** How many voters may be down while the rest still form a quorum. */
export function toleratedFailures(voters: number): number {
  return voters === 0 ? 0 : voters - quorumSize(voters);
}

export type MajorityCheck =
  | { ok: true }
  | { ok: false; reason: string; configuration: 'old' | 'new' };

/**
 * Invariant 1: the members that stay up during a step must be a majority of the old AND the new voters,
 * or ZooKeeper cannot commit the reconfig (or loses quorum while it happens).
 */
export function majorityAfter(
  staying: readonly number[],
  oldVoters: readonly number[],
  newVoters: readonly number[],
): MajorityCheck {
  const up = new Set(staying);
  const check = (voters: readonly number[], configuration: 'old' | 'new'): MajorityCheck => {
    const present = voters.filter((id) => up.has(id)).length;
    const needed = quorumSize(voters.length);
    if (voters.length === 0 || present < needed) {
      return {
        ok: false,
        configuration,
        reason: `only ${present} of the ${voters.length} ${configuration} voters stay up, ${needed} needed`,
      };
    }
    return { ok: true };
  };
  const old = check(oldVoters, 'old');
  return old.ok ? check(newVoters, 'new') : old;
}
