import type { Clock } from '../clock.js';
import type { Send } from './types.js';

const SENSITIVE_PARAM = /token|secret|password|passwd|key|signature|auth/i;

/** Masks query parameters that could carry a secret. cssctl never puts one there; the API command might. */
export function redactUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return raw;
  }
  url.username = '';
  url.password = '';
  for (const k of [...url.searchParams.keys()]) {
    if (SENSITIVE_PARAM.test(k)) url.searchParams.set(k, 'REDACTED');
  }
  return url.toString();
}

/** --verbose: one stderr line per HTTP exchange. Headers and bodies are never logged. */
export function withLogging(next: Send, log: (line: string) => void, clock: Clock): Send {
  return async (req) => {
    const started = clock.now();
    const attempt = req.attempt && req.attempt > 1 ? ` attempt=${req.attempt}` : '';
    try {
      const res = await next(req);
      const ms = clock.now() - started;
      const h = res.headers;
      const rl =
        h['x-ratelimit-remaining'] !== undefined
          ? ` ratelimit=${h['x-ratelimit-remaining']}/${h['x-ratelimit-limit'] ?? '?'} reset=${h['x-ratelimit-reset'] ?? '?'}`
          : '';
      const rid = h['x-request-id'] ? ` request_id=${h['x-request-id']}` : '';
      log(`* ${req.method} ${redactUrl(req.url)} -> ${res.status} ${ms}ms${rl}${attempt}${rid}`);
      return res;
    } catch (err) {
      const ms = clock.now() - started;
      log(
        `* ${req.method} ${redactUrl(req.url)} -> failed after ${ms}ms: ${(err as Error).message}${attempt}`,
      );
      throw err;
    }
  };
}
