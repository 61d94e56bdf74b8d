// Turns SIGTERM/SIGINT into an AbortSignal for Manager.run; for main.ts only (library code takes a signal).
export function abortOnSignals(signals: readonly NodeJS.Signals[] = ['SIGTERM', 'SIGINT']): AbortSignal {
  const controller = new AbortController();
  for (const name of signals) process.once(name, () => controller.abort(new Error(`received ${name}`)));
  return controller.signal;
}
