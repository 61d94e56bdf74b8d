// A JSON object, told apart from arrays and null without a schema: the check the informer and the watch stream make on
// every event, where a zod parse cost more than the object's own handling.

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
