// Runs startup steps side by side but, unlike Promise.all, waits for all of them before failing: a step
// still starting when another fails would otherwise finish after cleanup and leave its process running.

/** Waits until every promise has settled, then throws the first rejection, if any. */
export async function settleAll(promises: Promise<unknown>[]): Promise<void> {
  const results = await Promise.allSettled(promises);
  const failure = results.find((result) => result.status === 'rejected');
  if (failure) throw failure.reason;
}
