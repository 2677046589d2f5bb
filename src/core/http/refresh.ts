import type { ApiClient } from './client.js';
import type { TokenResponse } from './session.js';

/**
 * POST /auth/refresh (service-api.md §4): the one place its request is built, for every Session a context makes
 * (src/core/process-context.ts). It lives in core rather than beside POST /auth/login in src/api/auth.ts
 * because the context that wires a Session's refresh is core, and core may not import api (the layers,
 * .dependency-cruiser.cjs). `deadline`: as HttpRequest's.
 */
export function requestRefresh(
  client: ApiClient,
  refreshToken: string,
  deadline?: number,
): Promise<TokenResponse> {
  return client.request<TokenResponse>({
    method: 'POST',
    path: '/auth/refresh',
    body: { refresh_token: refreshToken },
    auth: false,
    deadline,
  });
}
