// The endpoints. Each handler gets an already authenticated, tenant-checked principal (except the
// two auth endpoints) and a parsed body; it returns a status and a JSON body or throws ApiError.
import type { IncomingHttpHeaders } from 'node:http';
import type { Connection, User, Webhook, Workspace } from './data.js';
import { ApiError, notFound, validationError } from './errors.js';
import { scanJson } from './scans.js';
import type { SandboxState } from './state.js';
import { EVENT_TYPES, PROVIDERS, SCAN_STATUSES, SEVERITIES, type EventType } from './types.js';
import { FieldChecker, paginate, parseChoice, parsePage, requireObject } from './validate.js';
import { webhookUrlProblem } from './webhooks.js';

export interface Principal {
  user: User;
  workspace: Workspace;
}

export interface RouteContext {
  state: SandboxState;
  now: number;
  params: Record<string, string>;
  query: URLSearchParams;
  /** Parsed JSON body (POST only). */
  body: unknown;
  headers: IncomingHttpHeaders;
}

export interface Result {
  status: number;
  /** Absent for 204. */
  body?: unknown;
}

type Method = 'GET' | 'POST' | 'DELETE';

export type Route =
  | { method: Method; pattern: string; auth: false; handler: (ctx: RouteContext) => Promise<Result> }
  | { method: Method; pattern: string; auth: true; handler: (ctx: RouteContext, p: Principal) => Result };

// ---- auth -------------------------------------------------------------------------------------

/** X-Tenant-Slug is optional on login and refresh; when given it must be the user's workspace. */
function checkOptionalTenant(ctx: RouteContext, user: User): void {
  const slug = tenantHeader(ctx.headers);
  if (slug === undefined) return;
  if (!ctx.state.workspaces.has(slug)) throw workspaceNotFound(slug);
  if (slug !== user.workspace) throw notMember(slug);
}

async function tokenAnswer(ctx: RouteContext, user: User, refreshToken: string | undefined): Promise<Result> {
  const ttl = ctx.state.tokenTtlSeconds;
  return {
    status: 200,
    body: {
      access_token: await ctx.state.tokens.issueAccess(user, ttl),
      ...(refreshToken === undefined ? {} : { refresh_token: refreshToken }),
      token_type: 'bearer',
      expires_in: ttl,
    },
  };
}

async function login(ctx: RouteContext): Promise<Result> {
  const check = new FieldChecker(requireObject(ctx.body));
  const email = check.string('email');
  const password = check.string('password');
  check.done();
  const user = ctx.state.userByEmail(email ?? '');
  if (!user || user.password !== password) {
    throw new ApiError(401, 'invalid_credentials', 'invalid email or password');
  }
  checkOptionalTenant(ctx, user);
  return tokenAnswer(ctx, user, ctx.state.tokens.issueRefresh(user.id));
}

async function refresh(ctx: RouteContext): Promise<Result> {
  const check = new FieldChecker(requireObject(ctx.body));
  const token = check.string('refresh_token');
  check.done();
  const omit = ctx.state.options.refreshOmit;
  // When the answer leaves out refresh_token the client keeps its old one, so it must not rotate.
  const rotate = !omit.includes('refresh_token');
  const redeemed = ctx.state.tokens.redeemRefresh(token ?? '', rotate);
  if (!redeemed.ok) throw new ApiError(401, redeemed.code, redeemed.detail);
  const user = ctx.state.userById(redeemed.userId);
  if (!user) throw new ApiError(401, 'invalid_refresh_token', 'refresh token is not valid');
  checkOptionalTenant(ctx, user);
  const answer = await tokenAnswer(
    ctx,
    user,
    rotate ? ctx.state.tokens.issueRefresh(user.id, redeemed.family) : undefined,
  );
  if (omit.includes('expires_in')) delete (answer.body as Record<string, unknown>).expires_in;
  return answer;
}

// ---- tenant helpers (also used by the pipeline) ----------------------------------------------

export function tenantHeader(headers: IncomingHttpHeaders): string | undefined {
  const raw = headers['x-tenant-slug'];
  const value = (Array.isArray(raw) ? raw[0] : raw)?.trim();
  return value === undefined || value === '' ? undefined : value.toLowerCase();
}

export function workspaceNotFound(slug: string): ApiError {
  return new ApiError(404, 'workspace_not_found', `workspace "${slug}" does not exist`, 'X-Tenant-Slug');
}

export function notMember(slug: string): ApiError {
  return new ApiError(403, 'forbidden', `you are not a member of workspace "${slug}"`, 'X-Tenant-Slug');
}

// ---- connections ------------------------------------------------------------------------------

const ALIAS = /^[a-z0-9][a-z0-9_-]{0,62}$/i;
const READ_ONLY_FIELDS = ['id', 'created_at', 'status'];

function listConnections(ctx: RouteContext, p: Principal): Result {
  const page = parsePage(ctx.query, ctx.state.options);
  return { status: 200, body: paginate('connections', p.workspace.connections, page) };
}

function createConnection(ctx: RouteContext, p: Principal): Result {
  const body = requireObject(ctx.body);
  const check = new FieldChecker(body);
  const alias = check.string('alias');
  if (alias !== undefined && !ALIAS.test(alias)) {
    check.fail('alias', 'alias must be 1-63 letters, digits, "-" or "_", starting with a letter or digit');
  }
  const providerText = check.string('provider');
  const provider = providerText?.toLowerCase();
  if (provider !== undefined && !PROVIDERS.some((x) => x === provider)) {
    check.fail('provider', `provider must be one of ${PROVIDERS.join(', ')}`);
  }
  const extra: Record<string, string> = {};
  for (const [key, value] of Object.entries(body)) {
    if (key === 'alias' || key === 'provider') continue;
    if (READ_ONLY_FIELDS.includes(key)) check.fail(key, `${key} is set by the service`);
    else if (typeof value !== 'string') check.fail(key, `${key} must be a string`);
    else extra[key] = value;
  }
  check.done();
  if (alias === undefined || provider === undefined) throw validationError(check.errors);
  if (p.workspace.connectionByAlias(alias)) {
    throw new ApiError(409, 'conflict', `connection alias "${alias}" already exists`, 'alias');
  }
  // `extra` cannot hold the fixed keys: alias and provider are skipped above, the rest refused.
  const connection: Connection = {
    id: p.workspace.nextId('con'),
    alias,
    provider,
    created_at: new Date(ctx.now).toISOString(),
    status: 'active',
    ...extra,
  };
  p.workspace.connections.push(connection);
  return { status: 201, body: connection };
}

// ---- scans ------------------------------------------------------------------------------------

function listScans(ctx: RouteContext, p: Principal): Result {
  const status = parseChoice(ctx.query, 'status', SCAN_STATUSES);
  const page = parsePage(ctx.query, ctx.state.options);
  // Newest first (then by id, so ties keep a stable order).
  const scans = p.workspace.scans
    .map((s) => scanJson(s, ctx.now))
    .filter((s) => status === undefined || s.status === status)
    .sort((a, b) =>
      a.created_at !== b.created_at ? (a.created_at < b.created_at ? 1 : -1) : a.scan_id < b.scan_id ? -1 : 1,
    );
  return { status: 200, body: paginate('scans', scans, page) };
}

function createScan(ctx: RouteContext, p: Principal): Result {
  const check = new FieldChecker(requireObject(ctx.body));
  const alias = check.string('connection_alias');
  check.done();
  const connection = p.workspace.connectionByAlias(alias ?? '');
  if (!connection) {
    throw new ApiError(
      404,
      'connection_not_found',
      `no connection with alias "${alias}" in workspace "${p.workspace.slug}"`,
      'connection_alias',
    );
  }
  const scan = ctx.state.scans.create(p.workspace, connection, ctx.now);
  return { status: 201, body: scanJson(scan, ctx.now) };
}

function getScan(ctx: RouteContext, p: Principal): Result {
  const id = ctx.params.id ?? '';
  const scan = p.workspace.scans.find((s) => s.scan_id === id);
  if (!scan) throw notFound(`scan "${id}" not found`);
  return { status: 200, body: scanJson(scan, ctx.now) };
}

// ---- findings ---------------------------------------------------------------------------------

function listFindings(ctx: RouteContext, p: Principal): Result {
  const severity = parseChoice(ctx.query, 'severity', SEVERITIES);
  const scanId = ctx.query.get('scan_id') ?? undefined;
  const page = parsePage(ctx.query, ctx.state.options);
  const all = p.workspace.findings;
  const matching =
    severity === undefined && scanId === undefined
      ? all
      : all.filter(
          (f) =>
            (severity === undefined || f.severity === severity) &&
            (scanId === undefined || f.scan_id === scanId),
        );
  return { status: 200, body: paginate('findings', matching, page) };
}

/** GET /findings/{id} (assumed by cli-contract.md §8). */
function getFinding(ctx: RouteContext, p: Principal): Result {
  const id = ctx.params.id ?? '';
  const finding = p.workspace.findings.find((f) => f.id === id);
  if (!finding) throw notFound(`finding "${id}" not found`);
  return { status: 200, body: finding };
}

// ---- webhooks ---------------------------------------------------------------------------------

function webhookJson(w: Webhook): Record<string, unknown> {
  // Never the secret.
  return { id: w.id, url: w.url, events: w.events, created_at: w.created_at };
}

function listWebhooks(ctx: RouteContext, p: Principal): Result {
  const page = parsePage(ctx.query, ctx.state.options);
  return { status: 200, body: paginate('webhooks', p.workspace.webhooks.map(webhookJson), page) };
}

function createWebhook(ctx: RouteContext, p: Principal): Result {
  const body = requireObject(ctx.body);
  const check = new FieldChecker(body);
  const url = check.string('url');
  const urlProblem = url === undefined ? undefined : webhookUrlProblem(url);
  if (urlProblem) check.fail('url', urlProblem);
  const events: EventType[] = [];
  if (!Array.isArray(body.events) || body.events.length === 0) {
    check.fail('events', 'events must be a non-empty array of event types');
  } else {
    for (const e of body.events as unknown[]) {
      const known = EVENT_TYPES.find((t) => t === e);
      if (known === undefined) {
        check.fail('events', `unknown event ${JSON.stringify(e)}; expected ${EVENT_TYPES.join(', ')}`);
      } else if (!events.includes(known)) events.push(known);
    }
  }
  const secret = check.string('secret');
  check.done();
  if (url === undefined || secret === undefined) throw validationError(check.errors);
  const hook: Webhook = {
    id: p.workspace.nextId('whk'),
    url,
    events,
    secret,
    created_at: new Date(ctx.now).toISOString(),
  };
  p.workspace.webhooks.push(hook);
  return { status: 201, body: webhookJson(hook) };
}

function deleteWebhook(ctx: RouteContext, p: Principal): Result {
  const id = ctx.params.id ?? '';
  const hooks = p.workspace.webhooks;
  const i = hooks.findIndex((w) => w.id === id);
  if (i < 0) throw notFound(`webhook "${id}" not found`);
  hooks.splice(i, 1);
  return { status: 204 };
}

// ---- compliance -------------------------------------------------------------------------------

/** GET /compliance (assumed by cli-contract.md §14): the workspace's score; a 404 when the sandbox has it off. */
function getCompliance(ctx: RouteContext, p: Principal): Result {
  if (!ctx.state.options.complianceEndpoint) throw notFound('not found');
  return { status: 200, body: ctx.state.scans.compliance.json(p.workspace.slug) };
}

// ---- table ------------------------------------------------------------------------------------

export const ROUTES: Route[] = [
  { method: 'POST', pattern: '/auth/login', auth: false, handler: login },
  { method: 'POST', pattern: '/auth/refresh', auth: false, handler: refresh },
  { method: 'GET', pattern: '/connections', auth: true, handler: listConnections },
  { method: 'POST', pattern: '/connections', auth: true, handler: createConnection },
  { method: 'GET', pattern: '/scans', auth: true, handler: listScans },
  { method: 'POST', pattern: '/scans', auth: true, handler: createScan },
  { method: 'GET', pattern: '/scans/:id', auth: true, handler: getScan },
  { method: 'GET', pattern: '/findings', auth: true, handler: listFindings },
  { method: 'GET', pattern: '/findings/:id', auth: true, handler: getFinding },
  { method: 'GET', pattern: '/webhooks', auth: true, handler: listWebhooks },
  { method: 'POST', pattern: '/webhooks', auth: true, handler: createWebhook },
  { method: 'DELETE', pattern: '/webhooks/:id', auth: true, handler: deleteWebhook },
  { method: 'GET', pattern: '/compliance', auth: true, handler: getCompliance },
];

function matchPattern(pattern: string, path: string): Record<string, string> | undefined {
  const want = pattern.split('/');
  const got = path.split('/');
  if (want.length !== got.length) return undefined;
  const params: Record<string, string> = {};
  for (const [i, part] of want.entries()) {
    const seg = got[i] ?? '';
    if (part.startsWith(':')) {
      if (seg === '') return undefined;
      params[part.slice(1)] = decodeURIComponent(seg);
    } else if (part !== seg) return undefined;
  }
  return params;
}

export type Match =
  | { kind: 'found'; route: Route; params: Record<string, string> }
  | { kind: 'method'; allowed: string[] }
  | { kind: 'none' };

/** `apiPath` is relative to /api/v1; a trailing slash is ignored. */
export function matchRoute(method: string, apiPath: string): Match {
  const path = apiPath.length > 1 ? apiPath.replace(/\/+$/, '') : apiPath;
  const allowed: string[] = [];
  for (const route of ROUTES) {
    let params: Record<string, string> | undefined;
    try {
      params = matchPattern(route.pattern, path);
    } catch {
      params = undefined; // malformed %-escape: no route
    }
    if (!params) continue;
    if (route.method === method) return { kind: 'found', route, params };
    allowed.push(route.method);
  }
  return allowed.length > 0 ? { kind: 'method', allowed } : { kind: 'none' };
}
