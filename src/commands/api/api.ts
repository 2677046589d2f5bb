import { readFileSync } from 'node:fs';
import type { Context } from '../../core/context.js';
import { CliError, InterruptedError, UsageError } from '../../core/errors.js';
import { parseJson, type Query } from '../../core/http/client.js';
import { writeList } from '../../core/output.js';
import { readAll } from '../../core/stdin.js';
import { API_PREFIX } from '../../core/url.js';
import { Paginator, readPage } from '../../api/paginate.js';
import { parseFields } from '../shared/fields.js';

export interface ApiOptions {
  method?: string;
  field: string[];
  input?: string;
  paginate?: boolean;
}

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
  if (input === '-') text = (await readAll(ctx.io.stdin)).toString('utf8');
  else {
    try {
      text = readFileSync(input, 'utf8');
    } catch (err) {
      throw new UsageError(
        `cannot read --input ${input}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`,
      );
    }
  }
  // A UTF-8 byte-order mark (Windows editors write one) is not part of the JSON.
  if (text.startsWith('\uFEFF')) text = text.slice(1);
  try {
    return JSON.parse(text);
  } catch {
    throw new UsageError(`--input ${input === '-' ? '(stdin)' : input} is not valid JSON`);
  }
}

export async function api(ctx: Context, opts: ApiOptions, args: string[]): Promise<void> {
  const { path, query } = splitApiPath(args[0] ?? '');
  const fields = parseFields(opts.field ?? [], '-f');
  const hasFields = Object.keys(fields).length > 0;
  const method = (opts.method ?? (hasFields || opts.input ? 'POST' : 'GET')).toUpperCase();
  if (!METHODS.has(method))
    throw new UsageError(`unsupported method "${opts.method}": use ${[...METHODS].join(', ')}`);
  const bodyless = method === 'GET' || method === 'HEAD' || method === 'DELETE';
  if (opts.input && bodyless) throw new UsageError(`--input cannot be used with ${method}`);
  if (opts.input && hasFields) throw new UsageError('use either -f fields or --input, not both');
  if (opts.paginate && method !== 'GET') throw new UsageError('--paginate works with GET only');

  let body: unknown;
  if (opts.input) body = await readInput(ctx, opts.input);
  else if (hasFields && !bodyless) body = fields;
  else if (hasFields)
    for (const [k, v] of Object.entries(fields)) query[k] = typeof v === 'string' ? v : JSON.stringify(v);

  const client = await ctx.api();
  if (!opts.paginate) {
    const res = await client.exchange({ method, path, query, body });
    if (res.body.trim() === '') return;
    const parsed = parseJson<unknown>(res);
    ctx.io.out(`${JSON.stringify(parsed, null, 2)}\n`);
    return;
  }

  // --paginate: every item of every page, as one JSON array.
  const key = path.split('/').filter(Boolean).pop() ?? '';
  const pager = new Paginator<unknown>(
    async (offset, limit) => {
      const page = await client.request<unknown>({ path, query: { ...query, limit, offset } });
      if (!Array.isArray(page) && !(page && typeof page === 'object'))
        throw new CliError('the answer is not a list');
      return readPage<unknown>(page, key);
    },
    {
      pageSize: Number(query.limit) || 100,
      startOffset: Number(query.offset) || 0,
      idOf: (item) =>
        item && typeof item === 'object' && 'id' in item ? String((item as { id: unknown }).id) : undefined,
      io: ctx.io,
    },
  );
  try {
    await writeList(ctx.io, pager, { format: 'json', columns: [], noun: 'items' });
  } catch (err) {
    if (err instanceof InterruptedError) {
      throw new InterruptedError(`interrupted; resume with -f offset=${pager.position}`);
    }
    throw err;
  }
}
