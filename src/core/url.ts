import { isIP } from 'node:net';
import { UsageError } from './errors.js';

export const API_PREFIX = '/api/v1';

/** The loopback hosts, as the messages name them. */
export const LOOPBACK_HOSTS = 'localhost, 127.0.0.0/8 and [::1]';

/**
 * Loopback hosts are the only ones that may be spoken to over plain HTTP, and are never proxied.
 * Exactly: `localhost`, 127.0.0.0/8 and ::1 (in any spelling) — nothing that merely ends in `::1`.
 */
export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  // Only the names the contract lists: `foo.localhost` may be sent to DNS by some resolvers.
  if (h === 'localhost') return true;
  if (isIP(h) === 4) return h.startsWith('127.');
  if (isIP(h) === 6) return ipv6Words(h)?.every((w, i) => w === (i === 7 ? 1 : 0)) ?? false;
  return false;
}

/** The eight 16-bit words of a valid IPv6 address (`::` expanded), or undefined for a form not handled. */
function ipv6Words(h: string): number[] | undefined {
  if (h.includes('.') || h.includes('%')) return undefined; // embedded IPv4, zone ids: not loopback here
  const [head = '', tail, extra] = h.split('::');
  if (extra !== undefined) return undefined;
  const parse = (part: string) => (part === '' ? [] : part.split(':').map((w) => parseInt(w, 16)));
  const a = parse(head);
  if (tail === undefined) return a.length === 8 ? a : undefined;
  const b = parse(tail);
  return [...a, ...Array<number>(8 - a.length - b.length).fill(0), ...b];
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
      `refusing plain http:// for ${url.hostname}: use https:// (http is allowed only for ${LOOPBACK_HOSTS})`,
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
