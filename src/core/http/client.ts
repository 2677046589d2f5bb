import { randomUUID } from 'node:crypto';
import { ApiError, AuthError, CliError, UsageError } from '../errors.js';
import { buildUrl, isLoopbackHost } from '../url.js';
import type { Session } from './session.js';
import type { HttpResponse, Send } from './types.js';
import { userAgent } from '../../version.js';

export type Query = Record<string, string | number | boolean | undefined | (string | number)[]>;

export interface ApiRequest {
  method?: string;
  /** Relative to /api/v1, e.g. `/connections`. */
  path: string;
  query?: Query;
  /** Serialised as JSON. */
  body?: unknown;
  /** Login and refresh go without a bearer token. */
  auth?: boolean;
  /** Epoch ms by which the request must be over, retries and rate-limit waits included (HttpRequest). */
  deadline?: number;
}

export interface ApiClientDeps {
  baseUrl?: string;
  workspace?: string;
  /** retry → rate limit → log → transport. */
  send: Send;
  session: () => Promise<Session>;
  signal?: AbortSignal;
}

/** The one way commands reach the service: URLs, headers, auth, refresh and error parsing live here. */
export class ApiClient {
  constructor(private readonly deps: ApiClientDeps) {}

  get baseUrl(): string {
    if (!this.deps.baseUrl) {
      throw new UsageError('no service address configured', {
        hint: 'pass --base-url, set CSSCTL_BASE_URL, or run cssctl login --base-url <url>',
      });
    }
    return this.deps.baseUrl;
  }

  /** Sends the request and returns the parsed JSON body of a 2xx answer; throws ApiError otherwise. */
  async request<T>(r: ApiRequest): Promise<T> {
    const res = await this.exchange(r);
    return parseJson<T>(res);
  }

  /** Like request, but hands back the raw answer of a 2xx (for `cssctl api`). */
  async exchange(r: ApiRequest): Promise<HttpResponse> {
    const method = (r.method ?? 'GET').toUpperCase();
    const auth = r.auth ?? true;
    const url = buildUrl(this.baseUrl, r.path, r.query);
    const headers: Record<string, string> = {
      accept: 'application/json',
      'user-agent': userAgent(),
    };
    if (this.deps.workspace) headers['x-tenant-slug'] = this.deps.workspace;
    else if (auth) {
      throw new UsageError('no workspace selected', {
        hint: 'pass -w <slug>, set CSSCTL_WORKSPACE, or run cssctl config set workspace <slug>',
      });
    }
    let body: string | undefined;
    if (r.body !== undefined) {
      body = JSON.stringify(r.body);
      headers['content-type'] = 'application/json';
    }
    // The same key on every retry of this POST, so the service can drop repeats.
    if (method === 'POST') headers['idempotency-key'] = randomUUID();
    const base = {
      method,
      url,
      headers,
      body,
      signal: this.deps.signal,
      ...(r.deadline === undefined ? {} : { deadline: r.deadline }),
    };

    let res: HttpResponse;
    if (!auth) {
      res = await this.deps.send(base);
    } else {
      assertSafeForToken(url);
      const session = await this.deps.session();
      const token = await session.accessToken(r.deadline);
      res = await this.deps.send({ ...base, headers: { ...headers, authorization: `Bearer ${token}` } });
      if (res.status === 401) {
        const fresh = await session.afterUnauthorized(token, r.deadline); // undefined for CSSCTL_TOKEN
        if (fresh)
          res = await this.deps.send({ ...base, headers: { ...headers, authorization: `Bearer ${fresh}` } });
      }
      if (res.status === 401) {
        const err = ApiError.fromResponse(res.status, res.body, base, res.headers['x-request-id']);
        throw new AuthError(
          session.fromEnv
            ? `CSSCTL_TOKEN was refused: ${err.detail}`
            : `${err.detail}; session could not be renewed`,
          {
            hint: session.fromEnv
              ? 'set a valid CSSCTL_TOKEN, or unset it and run cssctl login'
              : 'run cssctl login',
            cause: err,
          },
        );
      }
    }
    if (res.status < 200 || res.status >= 300) {
      throw ApiError.fromResponse(res.status, res.body, base, res.headers['x-request-id']);
    }
    return res;
  }
}

/** A bearer token goes only over HTTPS, or plain HTTP to this machine. */
export function assertSafeForToken(url: string): void {
  const u = new URL(url);
  if (u.protocol !== 'https:' && !(u.protocol === 'http:' && isLoopbackHost(u.hostname))) {
    throw new UsageError(`refusing to send credentials over plain HTTP to ${u.hostname}`);
  }
}

export function parseJson<T>(res: HttpResponse): T {
  if (res.body.trim() === '') return undefined as T;
  try {
    return JSON.parse(res.body) as T;
  } catch {
    throw new CliError(`the service answered HTTP ${res.status} with a body that is not JSON`);
  }
}
