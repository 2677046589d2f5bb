// Which scan statuses are final, and which of those are failures. The service shows only "completed"
// (service-api.md); these are the sandbox's and the usual synonyms.
const SUCCESS = new Set(['completed', 'succeeded', 'success', 'done', 'finished']);
const FAILURE = new Set(['failed', 'failure', 'error', 'errored', 'cancelled', 'canceled', 'aborted']);

export function isFinal(status: string): boolean {
  const s = status.toLowerCase();
  return SUCCESS.has(s) || FAILURE.has(s);
}

export function isFailed(status: string): boolean {
  return FAILURE.has(status.toLowerCase());
}
