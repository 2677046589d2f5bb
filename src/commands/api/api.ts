import type { Context } from '../../core/context.js';
import { UsageError } from '../../core/errors.js';
import { parseJson, type Query } from '../../core/http/client.js';
import { chooseFormat, type ListSource } from '../../core/output/index.js';
import { list as listOutput, type Result } from '../../report/result.js';
import { readUserFile } from '../../core/read-file.js';
import { readAll } from '../../core/stdin.js';
import { API_PREFIX } from '../../core/url.js';
import { NotAListError, readPage, type FetchPage } from '../../api/paginate.js';
import { parseFields } from '../shared/fields.js';
import { readPages } from '../../report/sources/pages.js';
import { shellQuote } from '../../core/resume.js';
import { API_OFFER } from './offer.js';
import type { ArgsOf, OptionsOf } from '../shared/define.js';
import type { apiCommand } from './api.command.js';

/** What `cssctl api` takes (api.command.ts). */
export type ApiOptions = OptionsOf<typeof apiCommand>;

const METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD']);

/** Splits `/findings?severity=high` into a path under /api/v1 and its query. */
export function splitApiPath(raw: string): { path: string; query: Query } {
  let p = raw.trim();
  if (!p) throw new UsageError('a path is required, e.g. /connections');
  if (/^[a-z]+:\/\//i.test(p)) throw new UsageError('give a path such as /connections, not a full URL');
  if (!p.startsWith('/')) p = `/${p}`;
  const [pathPart, search = ''] = p.split(/\?(.*)/s, 2) as [string, string?];
  let path = pathPart;
  if (path.toLowerCase().startsWith(`${API_PREFIX}/`) || path.toLowerCase() === API_PREFIX) {
    path = path.slice(API_PREFIX.length) || '/';
  }
  // The URL parser resolves `..`, `%2e%2e` and backslashes alike: any of them would leave /api/v1.
  if (path.split(/[\\/]/).some((seg) => seg.replace(/%2e/gi, '.') === '..')) {
    throw new UsageError('the path must not contain ".." segments');
  }
  const query: Query = {};
  for (const [k, v] of new URLSearchParams(search)) {
    const prev = query[k];
    query[k] = prev === undefined ? v : Array.isArray(prev) ? [...prev, v] : [String(prev), v];
  }
  return { path, query };
}

async function readInput(ctx: Context, input: string): Promise<unknown> {
  let text: string;
  if (input === '-') text = (await readAll(ctx.io.stdin, undefined, undefined, ctx.signal)).toString('utf8');
  // A FIFO or <(…) is read without blocking the process: Ctrl-C still stops it.
  else text = (await readUserFile(input, { what: '--input', signal: ctx.signal })).toString('utf8');
  // A UTF-8 byte-order mark (Windows editors write one) is not part of the JSON.
  if (text.startsWith('\uFEFF')) text = text.slice(1);
  try {
    return JSON.parse(text);
  } catch {
    throw new UsageError(`--input ${input === '-' ? '(stdin)' : input} is not valid JSON`);
  }
}

/**
 * The request's method (cli-contract.md §2): -X when given; else POST when -f or --input give a body (as gh
 * does), else GET. --paginate always reads with GET and sends -f fields as query parameters. Combinations
 * that cannot be sent are usage errors, found before any request.
 */
export function apiMethod(
  opts: Pick<ApiOptions, 'method' | 'input' | 'paginate'>,
  hasFields: boolean,
): string {
  const method = (
    opts.method ?? (!opts.paginate && (hasFields || opts.input) ? 'POST' : 'GET')
  ).toUpperCase();
  if (!METHODS.has(method))
    throw new UsageError(`unsupported method "${opts.method}": use ${[...METHODS].join(', ')}`);
  if (opts.paginate && method !== 'GET')
    throw new UsageError(`--paginate reads with GET: it cannot be used with -X ${method}`);
  if (opts.paginate && opts.input)
    throw new UsageError(
      '--paginate reads with GET: it cannot send --input (give -f fields as query parameters)',
    );
  const bodyless = method === 'GET' || method === 'HEAD' || method === 'DELETE';
  if (opts.input && bodyless) throw new UsageError(`--input cannot be used with ${method}`);
  if (opts.input && hasFields) throw new UsageError('use either -f fields or --input, not both');
  return method;
}

export async function api(
  ctx: Context,
  opts: ApiOptions,
  [given]: ArgsOf<typeof apiCommand>,
): Promise<Result> {
  const { path, query } = splitApiPath(given ?? '');
  const fields = parseFields(opts.field ?? [], '-f');
  const hasFields = Object.keys(fields).length > 0;
  const method = apiMethod(opts, hasFields);
  const bodyless = method === 'GET' || method === 'HEAD' || method === 'DELETE';

  let body: unknown;
  if (opts.input) body = await readInput(ctx, opts.input);
  else if (hasFields && !bodyless) body = fields;
  else if (hasFields)
    for (const [k, v] of Object.entries(fields)) query[k] = typeof v === 'string' ? v : JSON.stringify(v);

  const format = chooseFormat(await ctx.settings(), API_OFFER, 'api');
  const client = await ctx.api();
  if (!opts.paginate) {
    const res = await client.exchange({ method, path, query, body });
    if (res.body.trim() === '') return {};
    return { output: { kind: 'value', value: parseJson<unknown>(res), format } };
  }

  // --paginate: every item of every page, as one JSON array (-o ndjson: one per line).
  const key = path.split('/').filter(Boolean).pop() ?? '';
  const startOffset = Number(query.offset) || 0;
  const userLimit = Number(query.limit) || undefined;
  let single: { value: unknown } | undefined;
  let pages = 0;
  const fetch: FetchPage<unknown> = async (offset, limit) => {
    const answer = await client.request<unknown>({ path, query: { ...query, limit, offset } });
    pages++;
    try {
      return readPage<unknown>(answer, key);
    } catch (err) {
      // The first answer is one object, not a list: it is printed as it is, as without --paginate.
      if (pages === 1 && answer !== null && typeof answer === 'object' && err instanceof NotAListError) {
        single = { value: answer };
        return { items: [] };
      }
      throw err;
    }
  };
  const pager = readPages<unknown>(ctx.io, fetch, { limit: userLimit, offset: startOffset });
  const rawPath = given ?? '';
  // The first page decides whether this is a list at all; then the pages stream.
  const iterator = pager.pages()[Symbol.asyncIterator]();
  const head = await iterator.next();
  if (single) return { output: { kind: 'value', value: single.value, format } };
  async function* pageStream(): AsyncGenerator<unknown[]> {
    if (head.done) return;
    yield head.value;
    for (let r = await iterator.next(); !r.done; r = await iterator.next()) yield r.value;
  }
  const source: ListSource<unknown> = {
    async *[Symbol.asyncIterator]() {
      for await (const page of pageStream()) yield* page;
    },
    pages: pageStream,
    resume: () => apiResumeCommand(ctx.argv, rawPath, pager.position),
  };
  return { output: listOutput({ source, format, columns: [], noun: 'items' }) };
}

/**
 * `cssctl api '<path>?…&offset=N' --paginate …`: the offset goes into the path's query, replacing any offset
 * given before, in the path or as a field.
 */
export function apiResumeCommand(argv: readonly string[], rawPath: string, offset: number): string {
  const [pathPart, search = ''] = rawPath.split(/\?(.*)/s, 2) as [string, string?];
  const params = new URLSearchParams(search);
  params.set('offset', String(offset));
  const newPath = `${pathPart}?${params.toString()}`;
  const out: string[] = [];
  let replaced = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if ((a === '-f' || a === '--field') && /^\s*offset\s*:?=/.test(argv[i + 1] ?? '')) {
      i++;
      continue;
    }
    if (/^(-f|--field=)\s*offset\s*:?=/.test(a)) continue;
    if (!replaced && a === rawPath) {
      out.push(newPath);
      replaced = true;
      continue;
    }
    out.push(a);
  }
  return ['cssctl', ...out].map(shellQuote).join(' ');
}
