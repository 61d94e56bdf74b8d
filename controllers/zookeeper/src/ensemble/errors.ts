// Why an observation has no answer: recorded in the observation (observing never throws), read by people in status.
export class PodWithoutIpError extends Error {
  override readonly name = 'PodWithoutIpError';
  constructor(readonly pod: string) {
    super(`pod ${pod} has no IP yet`);
  }
}

export class NoServingMemberError extends Error {
  override readonly name = 'NoServingMemberError';
  constructor(members: number) {
    super(`none of the ${members} member pods serves requests, so the committed config cannot be read`);
  }
}

export class CommittedConfigReadError extends Error {
  override readonly name = 'CommittedConfigReadError';
  constructor(
    readonly pod: string,
    options: { cause: unknown },
  ) {
    super(`cannot read the committed config from ${pod}`, options);
  }
}
