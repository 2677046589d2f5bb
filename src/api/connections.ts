import type { ApiClient } from '../core/http/client.js';
import { readPage, type Page } from './paginate.js';

export interface Connection {
  alias: string;
  provider: string;
  id?: string;
  status?: string;
  created_at?: string;
  [key: string]: unknown;
}

/** GET /connections: the spec does not show its shape, so a bare array and a paginated object are both read. */
export async function listConnections(
  client: ApiClient,
  page: { limit?: number; offset?: number },
): Promise<Page<Connection>> {
  const body = await client.request<unknown>({ path: '/connections', query: page });
  return readPage<Connection>(body, 'connections');
}

/** POST /connections — (assumed) by cli-contract.md: body `{alias, provider, ...}`. */
export function createConnection(client: ApiClient, body: Record<string, unknown>): Promise<Connection> {
  return client.request<Connection>({ method: 'POST', path: '/connections', body });
}
