import type { ApiClient } from '../core/http/client.js';
import type { TokenResponse } from '../core/http/session.js';

/** POST /auth/login (service-api.md §4). */
export function login(client: ApiClient, email: string, password: string): Promise<TokenResponse> {
  return client.request<TokenResponse>({
    method: 'POST',
    path: '/auth/login',
    body: { email, password },
    auth: false,
  });
}
