// Why an observation has no answer: recorded in the observation (observing never throws), read by people in status.

/**
 * A reason made for each member at each look and never thrown, so no stack trace is taken: that was half of what one
 * cost, and a burst of new ensembles, whose pods have no IP yet, made enough of them to be 2% of the workload
 * controller's CPU.
 */
abstract class ObservationError extends Error {
  constructor(message: string) {
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(message);
    Error.stackTraceLimit = limit;
  }
}

export class PodWithoutIpError extends ObservationError {
  override readonly name = 'PodWithoutIpError';
  constructor(readonly pod: string) {
    super(`pod ${pod} has no IP yet`);
  }
}

export class NoServingMemberError extends ObservationError {
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
