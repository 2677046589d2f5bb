/** One line of `cssctl doctor`: `ok`, `warn` or `fail`, what was found, and what to do about it. */
export type CheckStatus = 'ok' | 'warn' | 'fail';

export interface Check {
  name: string;
  status: CheckStatus;
  detail: string;
  /** What to do; null when there is nothing to do. */
  hint: string | null;
}

export function check(name: string, status: CheckStatus, detail: string, hint: string | null = null): Check {
  return { name, status, detail, hint };
}
