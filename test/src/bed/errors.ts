// Error classes of the test bed, one per concern, each carrying the context a person needs to act on it.

/** A binary the bed needs is missing or could not be built. */
export class BedBinariesError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'BedBinariesError';
  }
}

/** A child process could not be started, or exited while the bed still needed it. */
export class BedProcessError extends Error {
  constructor(
    message: string,
    readonly processName: string,
    readonly logFile: string,
    options?: { cause?: unknown },
  ) {
    super(`${message} (log: ${logFile})`, options);
    this.name = 'BedProcessError';
  }
}

/** A setup step (PKI, kubeconfig, API call) failed. */
export class BedSetupError extends Error {
  constructor(step: string, options?: { cause?: unknown }) {
    const reason = options?.cause instanceof Error ? `: ${options.cause.message}` : '';
    super(`test bed setup failed at ${step}${reason}`, options);
    this.name = 'BedSetupError';
  }
}
