import { isIP } from 'node:net';
import { UsageError } from './errors.js';

export const API_PREFIX = '/api/v1';

/** Loopback hosts are the only ones that may be spoken to over plain HTTP. */
export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  // Only the names the contract lists: `foo.localhost` may be sent to DNS by some resolvers.
  if (h === 'localhost') return true;
  if (isIP(h) === 4) return h.startsWith('127.');
  if (isIP(h) === 6) return h === '::1' || h === '0:0:0:0:0:0:0:1';
  return false;
}

/**
 * Normalises a user-supplied service address to its origin plus path prefix, without `/api/v1`
 * (which is appended per request). Refuses anything that would send a token in the clear.
 */
export function normalizeBaseUrl(input: string): string {
  const raw = input.trim();
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UsageError(`invalid base URL "${raw}": expected something like https://scanner.example.com`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new UsageError(`invalid base URL "${raw}": the scheme must be https`);
  }
  if (url.username || url.password) {
    throw new UsageError('invalid base URL: it must not contain credentials');
  }
  if (url.search || url.hash) {
    throw new UsageError(`invalid base URL "${raw}": it must not contain a query or fragment`);
  }
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
    throw new UsageError(
      `refusing plain http:// for ${url.hostname}: use https:// (http is allowed only for localhost and 127.0.0.1)`,
    );
  }
  let path = url.pathname;
  for (let prev = ''; prev !== path;) {
    prev = path;
    path = path.replace(/\/+$/, '');
    if (path.toLowerCase().endsWith(API_PREFIX)) path = path.slice(0, -API_PREFIX.length);
  }
  return `${url.protocol}//${url.host}${path}`;
}

/** Joins base URL, the API prefix, a path and query parameters (undefined values are left out). */
export function buildUrl(
  baseUrl: string,
  path: string,
  query?: Record<string, string | number | boolean | undefined | (string | number)[]>,
): string {
  const p = path.startsWith('/') ? path : `/${path}`;
  const url = new URL(`${baseUrl}${API_PREFIX}${p}`);
  for (const [k, v] of Object.entries(query ?? {})) {
    if (v === undefined) continue;
    if (Array.isArray(v)) for (const item of v) url.searchParams.append(k, String(item));
    else url.searchParams.set(k, String(v));
  }
  return url.toString();
}
