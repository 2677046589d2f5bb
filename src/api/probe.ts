import { assertSafeForToken } from '../core/http/client.js';
import type { PlainSend } from '../core/http/plain.js';
import type { HttpResponse } from '../core/http/types.js';
import { buildUrl } from '../core/url.js';
import { userAgent } from '../version.js';

/** What `cssctl doctor` asks the service: the cheapest read there is, one page of one connection. */
export const PROBE_PATH = '/connections';

/**
 * GET /connections?limit=1 as one bare exchange, for `cssctl doctor`: no retry, no rate-limit wait and no
 * refresh, so the answer (status, latency, Date and X-RateLimit-* headers) is reported as it came. With a token,
 * as every command sends it (bearer and workspace); without one, to see that the API answers at all.
 */
export function probeApi(
  send: PlainSend,
  o: { baseUrl: string; workspace?: string; token?: string; signal?: AbortSignal },
): Promise<HttpResponse> {
  const url = buildUrl(o.baseUrl, PROBE_PATH, { limit: 1 });
  const headers: Record<string, string> = { accept: 'application/json', 'user-agent': userAgent() };
  if (o.workspace) headers['x-tenant-slug'] = o.workspace;
  if (o.token) {
    assertSafeForToken(url);
    headers.authorization = `Bearer ${o.token}`;
  }
  return send({ method: 'GET', url, headers, signal: o.signal });
}
