import { ApiError, CliError } from '../core/errors.js';
import type { ApiClient } from '../core/http/client.js';

/**
 * The workspace's compliance score as GET /compliance **(assumed)** answers it (cli-contract.md §14): at least
 * `score` (0–100); where the service gives them, `threshold` (0–100) and the time it was computed; any other
 * field as the service sends it.
 */
export interface Compliance {
  score: number;
  threshold?: number;
  computed_at?: string;
  [key: string]: unknown;
}

/** The fields a service may name the time of the score with, in the order cssctl looks for them. */
export const COMPUTED_AT_FIELDS = ['computed_at', 'calculated_at', 'updated_at', 'timestamp'] as const;

/** The service's object, checked: a score that is a number from 0 to 100, a threshold likewise when given. */
export function readCompliance(body: unknown): Compliance {
  const what = "the service's compliance answer";
  if (body === null || typeof body !== 'object' || Array.isArray(body))
    throw new CliError(
      `${what} is not an object (${body === undefined ? 'an empty body' : JSON.stringify(body).slice(0, 40)})`,
      { neutral: `${what} could not be read: it is not an object` },
    );
  const c = body as Record<string, unknown>;
  const check = (field: string, required: boolean) => {
    const v = c[field];
    if (v === undefined || v === null) {
      if (required) throw new CliError(`${what} has no ${field}`);
      return;
    }
    // JSON reads 1e400 as Infinity, which JSON.stringify would show as null.
    if (typeof v === 'number' && !Number.isFinite(v))
      throw new CliError(`${what} has a ${field} too large to be a score (outside 0–100)`, {
        neutral: `${what} could not be read: its ${field} is too large to be a score`,
      });
    if (typeof v !== 'number')
      throw new CliError(`${what} has a ${field} that is not a number: ${JSON.stringify(v).slice(0, 40)}`, {
        neutral: `${what} could not be read: its ${field} is not a number`,
      });
    if (v < 0 || v > 100) throw new CliError(`${what} has a ${field} of ${v}, outside 0–100`);
  };
  check('score', true);
  check('threshold', false);
  return c as Compliance;
}

/**
 * GET /compliance **(assumed)**. A 404 is a service that does not publish a compliance score: exit 5 saying
 * so, rather than a bare "not found".
 */
export async function getCompliance(client: ApiClient): Promise<Compliance> {
  let body: unknown;
  try {
    body = await client.request<unknown>({ path: '/compliance' });
  } catch (err) {
    if (err instanceof ApiError && err.status === 404)
      throw new ApiError({
        status: 404,
        method: err.method,
        url: err.url,
        code: err.code,
        requestId: err.requestId,
        detail: 'this service does not publish a compliance score',
      });
    throw err;
  }
  return readCompliance(body);
}
