// The request pipeline, independent of sockets: route → who is asking → rate limit → auth →
// tenant → role → idempotency → body → handler. Every answer carries the rate-limit headers.
import type { IncomingHttpHeaders } from 'node:http';
import { ApiError } from './errors.js';
import type { AccessClaims } from './jwt.js';
import type { Bucket, RateState } from './ratelimit.js';
import {
  matchRoute,
  notMember,
  tenantHeader,
  workspaceNotFound,
  type Match,
  type Principal,
  type Result,
  type RouteContext,
} from './routes.js';
import type { SandboxState } from './state.js';
import type { Fault } from './types.js';
import { parseJsonBody } from './validate.js';

export const API_PREFIX = '/api/v1';

export interface ApiRequest {
  method: string;
  /** URL path as received, with /api/v1. */
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: string;
  bodyTooLarge: boolean;
  ip: string;
}

export interface ApiResponse {
  status: number;
  headers: Record<string, string>;
  /** Absent: no body (204). */
  body?: unknown;
  replayed?: boolean;
}

type StatusFault = Extract<Fault, { kind: 'status' }>;

type AuthResult =
  { ok: true; claims: AccessClaims; user: Principal['user'] } | { ok: false; error: ApiError };

/** The path relative to /api/v1, or undefined for paths outside the API. */
export function apiPathOf(path: string): string | undefined {
  if (path === API_PREFIX) return '/';
  return path.startsWith(`${API_PREFIX}/`) ? path.slice(API_PREFIX.length) : undefined;
}

function unauthorized(code: string, detail: string): ApiError {
  return new ApiError(401, code, detail, undefined, undefined, {
    'WWW-Authenticate': 'Bearer error="invalid_token"',
  });
}

async function authenticate(state: SandboxState, headers: IncomingHttpHeaders): Promise<AuthResult> {
  const header = headers.authorization;
  if (header === undefined || header.trim() === '') {
    return {
      ok: false,
      error: unauthorized('invalid_token', 'missing Authorization: Bearer <token> header'),
    };
  }
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!m?.[1]) {
    return {
      ok: false,
      error: unauthorized('invalid_token', 'Authorization header must be "Bearer <token>"'),
    };
  }
  const verified = await state.tokens.verifyAccess(m[1]);
  if (!verified.ok) return { ok: false, error: unauthorized(verified.code, verified.detail) };
  const user = state.userById(verified.claims.sub);
  if (!user)
    return { ok: false, error: unauthorized('invalid_token', 'the user of this token no longer exists') };
  return { ok: true, claims: verified.claims, user };
}

/** Login counts per IP; an identified user counts against their workspace; anyone else per IP. */
function bucketsFor(
  state: SandboxState,
  req: ApiRequest,
  match: Match,
  auth: AuthResult | undefined,
): Bucket[] {
  const o = state.options;
  const route = match.kind === 'found' ? match.route : undefined;
  if (route?.pattern === '/auth/login') return [{ key: `login:${req.ip}`, limit: o.loginRateLimit }];
  if (!auth?.ok) return [{ key: `ip:${req.ip}`, limit: o.rateLimit }];
  const ws = auth.claims.workspace;
  const general = { key: `ws:${ws}`, limit: o.rateLimit };
  if (route?.method === 'POST' && route.pattern === '/scans') {
    // The scans bucket is last, so it is the one reported.
    return [general, { key: `scans:${ws}`, limit: o.scanRateLimit }];
  }
  return [general];
}

function rateHeaders(s: RateState): Record<string, string> {
  return {
    'X-RateLimit-Limit': String(s.limit),
    'X-RateLimit-Remaining': String(s.remaining),
    'X-RateLimit-Reset': String(s.resetSec),
  };
}

function errorResponse(err: ApiError, headers: Record<string, string>): ApiResponse {
  return { status: err.status, headers: { ...headers, ...err.headers }, body: err.toBody() };
}

const FAULT_CODES: Record<StatusFault['status'], string> = {
  429: 'rate_limited',
  500: 'internal_error',
  502: 'bad_gateway',
  503: 'service_unavailable',
  504: 'gateway_timeout',
};

function faultResponse(fault: StatusFault, bucket: Bucket, state: SandboxState, now: number): ApiResponse {
  const headers = rateHeaders(state.limiter.peek(bucket, now));
  const err = new ApiError(fault.status, FAULT_CODES[fault.status], `injected fault: HTTP ${fault.status}`);
  if (fault.status === 429) {
    const wait = fault.retryAfterSeconds ?? 1;
    headers['X-RateLimit-Remaining'] = '0';
    headers['X-RateLimit-Reset'] = String(Math.ceil(now / 1000 + wait));
    headers['Retry-After'] = String(wait);
  }
  return errorResponse(err, headers);
}

function isJsonContentType(value: string | undefined): boolean {
  const type = value?.split(';')[0]?.trim().toLowerCase() ?? '';
  return type === 'application/json' || /^application\/[\w.+-]+\+json$/.test(type);
}

function parseBody(req: ApiRequest): unknown {
  if (req.bodyTooLarge) throw new ApiError(413, 'payload_too_large', 'request body exceeds 1 MiB');
  if (req.body.trim() !== '' && !isJsonContentType(req.headers['content-type'])) {
    throw new ApiError(
      415,
      'unsupported_media_type',
      'request body must be sent with Content-Type: application/json',
      'Content-Type',
    );
  }
  return parseJsonBody(req.body);
}

function principalFor(
  state: SandboxState,
  req: ApiRequest,
  auth: AuthResult | undefined,
  write: boolean,
): Principal {
  if (!auth?.ok) throw auth?.error ?? unauthorized('invalid_token', 'authentication required');
  const slug = tenantHeader(req.headers);
  if (slug === undefined) {
    throw new ApiError(400, 'missing_tenant', 'the X-Tenant-Slug header is required', 'X-Tenant-Slug');
  }
  const workspace = state.workspaces.get(slug);
  if (!workspace) throw workspaceNotFound(slug);
  const user = auth.user;
  if (user.workspace !== slug) throw notMember(slug);
  if (write && user.role === 'read_only') {
    throw new ApiError(403, 'forbidden', `role read_only may not ${req.method} in workspace "${slug}"`);
  }
  return { user, workspace };
}

function idempotencyKey(headers: IncomingHttpHeaders): string | undefined {
  const raw = headers['idempotency-key'];
  const key = (Array.isArray(raw) ? raw[0] : raw)?.trim();
  return key === undefined || key === '' ? undefined : key;
}

async function runRoute(
  state: SandboxState,
  req: ApiRequest,
  match: Match,
  auth: AuthResult | undefined,
  now: number,
): Promise<ApiResponse> {
  if (match.kind === 'none')
    throw new ApiError(404, 'not_found', `no such endpoint: ${req.method} ${req.path}`);
  if (match.kind === 'method') {
    throw new ApiError(
      405,
      'method_not_allowed',
      `${req.method} is not allowed on ${req.path}; use ${match.allowed.join(', ')}`,
      undefined,
      undefined,
      { Allow: match.allowed.join(', ') },
    );
  }
  const { route, params } = match;
  const ctx: RouteContext = { state, now, params, query: req.query, body: undefined, headers: req.headers };
  if (!route.auth) {
    ctx.body = parseBody(req);
    return toResponse(await route.handler(ctx));
  }

  const principal = principalFor(state, req, auth, route.method !== 'GET');
  // Scans finish lazily: record the due ones before anything reads scans or findings.
  state.scans.settleDue(principal.workspace, now);
  if (route.method !== 'POST') return toResponse(route.handler(ctx, principal));

  const key = idempotencyKey(req.headers);
  const scope = `${route.method} ${route.pattern}`;
  const slug = principal.workspace.slug;
  if (key !== undefined) {
    const stored = state.idempotency.get(slug, scope, key, now);
    if (stored) {
      if (stored.requestBody !== req.body) {
        throw new ApiError(
          400,
          'idempotency_key_reused',
          `Idempotency-Key "${key}" was already used with a different request body`,
          'Idempotency-Key',
        );
      }
      return {
        status: stored.status,
        headers: { 'Idempotent-Replayed': 'true' },
        body: stored.body,
        replayed: true,
      };
    }
  }
  let response: ApiResponse;
  try {
    ctx.body = parseBody(req);
    response = toResponse(route.handler(ctx, principal));
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    response = errorResponse(err, {});
  }
  if (key !== undefined && response.status < 500) {
    state.idempotency.set(slug, scope, key, {
      status: response.status,
      body: response.body,
      requestBody: req.body,
      at: now,
    });
  }
  return response;
}

function toResponse(result: Result): ApiResponse {
  return { status: result.status, headers: {}, ...(result.body === undefined ? {} : { body: result.body }) };
}

/**
 * Answers one request. A status fault is answered before anything else happens (and spends no
 * quota), but after working out the caller, so its rate-limit headers are the right ones.
 */
export async function handleApi(
  state: SandboxState,
  req: ApiRequest,
  fault?: StatusFault,
): Promise<ApiResponse> {
  const now = Date.now();
  const apiPath = apiPathOf(req.path);
  const match: Match = apiPath === undefined ? { kind: 'none' } : matchRoute(req.method, apiPath);
  const isPublic = match.kind === 'found' && !match.route.auth;
  const auth = isPublic ? undefined : await authenticate(state, req.headers);
  const buckets = bucketsFor(state, req, match, auth);
  const reported = buckets[buckets.length - 1];
  if (!reported) throw new Error('no rate-limit bucket');

  if (fault) return faultResponse(fault, reported, state, now);

  const taken = state.limiter.take(buckets, now);
  const limitHeaders = rateHeaders(taken.state);
  if (!taken.allowed) {
    const err = new ApiError(
      429,
      'rate_limited',
      `rate limit of ${taken.state.limit} requests per ${state.options.rateWindowSeconds}s exceeded; retry after ${taken.state.retryAfterSec}s`,
    );
    return errorResponse(err, { ...limitHeaders, 'Retry-After': String(taken.state.retryAfterSec) });
  }
  try {
    const response = await runRoute(state, req, match, auth, now);
    return { ...response, headers: { ...limitHeaders, ...response.headers } };
  } catch (err) {
    if (err instanceof ApiError) return errorResponse(err, limitHeaders);
    console.error('sandbox: unexpected error', err);
    return errorResponse(new ApiError(500, 'internal_error', 'unexpected server error'), limitHeaders);
  }
}
