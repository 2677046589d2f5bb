import { ApiError, CliError } from '../core/errors.js';
import type { ApiClient } from '../core/http/client.js';
import type { Finding, Scan } from './findings-types.js';
import { readPage, type Page } from './paginate.js';

/** GET /findings?limit&offset&severity, plus scan_id **(assumed)** as a filter (cli-contract.md §2). */
export async function listFindings(
  client: ApiClient,
  q: { limit?: number; offset?: number; severity?: string; scanId?: string },
): Promise<Page<Finding>> {
  const body = await client.request<unknown>({
    path: '/findings',
    query: { limit: q.limit, offset: q.offset || undefined, severity: q.severity, scan_id: q.scanId },
  });
  return readPage<Finding>(body, 'findings');
}

/** GET /findings/{id} **(assumed)** (cli-contract.md §8): one finding, or a clear error when the answer is not one. */
export async function getFinding(client: ApiClient, id: string): Promise<Finding> {
  const body = await naming('finding', id, () =>
    client.request<unknown>({ path: `/findings/${encodeURIComponent(id)}` }),
  );
  if (body === null || typeof body !== 'object' || Array.isArray(body))
    throw new CliError(
      `the service's answer is not a finding (${body === undefined ? 'an empty body' : JSON.stringify(body).slice(0, 40)})`,
      { neutral: "the service's answer could not be read: it is not a finding" },
    );
  const f = body as Finding;
  // The id the service gave is its text: the MCP server's wording names only the id asked for.
  if (f.id !== undefined && String(f.id) !== id)
    throw new CliError(`the service answered about finding ${String(f.id)} when asked for finding ${id}`, {
      neutral: `the service answered about another finding when asked for finding ${id}; nothing was read`,
    });
  return f;
}

/** A scan record, or a clear error: the rest of cssctl may rely on an object with a scan_id and a status. */
export function readScan(body: unknown): Scan {
  if (body === null || typeof body !== 'object' || Array.isArray(body))
    throw new CliError(
      `the service's answer is not a scan (${body === undefined ? 'an empty body' : JSON.stringify(body).slice(0, 40)})`,
      { neutral: "the service's answer could not be read: it is not a scan" },
    );
  const s = body as Record<string, unknown>;
  const id = s.scan_id ?? s.id;
  if (typeof id !== 'string' && typeof id !== 'number')
    throw new CliError("the service's answer is not a scan (no scan_id)", {
      neutral: "the service's answer could not be read: it is not a scan (no scan_id)",
    });
  // A status that is a number is kept as its text, so a warning can name it; anything else is "unknown".
  const status =
    typeof s.status === 'string' ? s.status : typeof s.status === 'number' ? String(s.status) : 'unknown';
  return { ...s, scan_id: String(id), status } as Scan;
}

/** POST /scans **(assumed body `{connection_alias}`)**. */
export async function createScan(client: ApiClient, connectionAlias: string): Promise<Scan> {
  return readScan(
    await client.request<unknown>({
      method: 'POST',
      path: '/scans',
      body: { connection_alias: connectionAlias },
    }),
  );
}

/** GET /scans **(assumed, paginated like findings)**, optionally by status. */
export async function listScans(
  client: ApiClient,
  q: { limit?: number; offset?: number; status?: string },
): Promise<Page<Scan>> {
  const body = await client.request<unknown>({
    path: '/scans',
    query: { limit: q.limit, offset: q.offset || undefined, status: q.status },
  });
  return readPage<Scan>(body, 'scans');
}

/** GET /scans/{scan_id} **(assumed)**; `deadline` (epoch ms) bounds it, retries and waits included. */
export async function getScan(client: ApiClient, scanId: string, deadline?: number): Promise<Scan> {
  return readScan(
    await naming('scan', scanId, () =>
      client.request<unknown>({ path: `/scans/${encodeURIComponent(scanId)}`, deadline }),
    ),
  );
}

/**
 * A 404 names what the user asked for (`scan "scn_nope" not found`), whatever the service's detail says: a
 * detail such as "scan not found" leaves a user who passed several ids (a diff's base and head, a list of
 * findings to ignore) guessing which one. The service's code, request id and status are kept.
 */
async function naming<T>(kind: string, id: string, request: () => Promise<T>): Promise<T> {
  try {
    return await request();
  } catch (err) {
    if (!(err instanceof ApiError) || err.status !== 404 || err.detail.includes(id)) throw err;
    const named = /\bnot found\b/i.test(err.detail)
      ? `${kind} ${JSON.stringify(id)} not found`
      : `${kind} ${JSON.stringify(id)}: ${err.detail}`;
    const again = new ApiError({
      status: err.status,
      method: err.method,
      url: err.url,
      detail: named,
      code: err.code,
      field: err.field,
      requestId: err.requestId,
      fieldErrors: err.fieldErrors,
    });
    again.hint = err.hint;
    throw again;
  }
}
