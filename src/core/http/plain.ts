import type { Clock } from '../clock.js';
import { NetworkError, UsageError } from '../errors.js';
import { userAgent } from '../../version.js';
import { withLogging } from './log.js';
import { createTransport } from './transport.js';
import type { HttpResponse, Send } from './types.js';

/** A request to a URL that is not the service (a webhook receiver, a --forward-to target). */
export interface PlainRequest {
  method?: string;
  url: string;
  headers?: Record<string, string>;
  /** Sent byte for byte. */
  body?: string | Uint8Array;
  signal?: AbortSignal;
}

export type PlainSend = (req: PlainRequest) => Promise<HttpResponse>;

export interface PlainOptions {
  timeoutMs: number;
  /** --verbose lines (the logging layer writes method, URL, status and time: never headers or bodies). */
  log: (line: string) => void;
  clock: Clock;
  /** For tests: the layer under the logging one (default: the undici transport). */
  transport?: Send;
}

/**
 * The same transport as the service's client — timeout, proxies from the environment, TLS trust, verbose
 * logging — but nothing of the service: no base URL, no token, no tenant header, no idempotency key, no rate
 * limit and no retry (a receiver's answer is reported as it is). Redirects are not followed: a 3xx is the
 * receiver's answer.
 */
export function createPlainSender(opts: PlainOptions): PlainSend {
  const transport = opts.transport ?? createTransport({ timeoutMs: opts.timeoutMs, followRedirects: false });
  const send = withLogging(transport, opts.log, opts.clock);
  return async (req) => {
    let url: URL;
    try {
      url = new URL(req.url);
    } catch {
      throw new UsageError(`invalid URL "${req.url}"`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new UsageError(`invalid URL "${req.url}": the scheme must be http or https`);
    }
    const headers: Record<string, string> = { 'user-agent': userAgent() };
    for (const [k, v] of Object.entries(req.headers ?? {})) headers[k.toLowerCase()] = v;
    try {
      return await send({
        method: (req.method ?? 'GET').toUpperCase(),
        url: url.toString(),
        headers,
        body: req.body,
        signal: req.signal,
      });
    } catch (err) {
      // The transport's hints speak of the service; here the other end is a receiver.
      if (err instanceof NetworkError && err.kind === 'refused') err.hint = 'is the receiver running there?';
      throw err;
    }
  };
}
