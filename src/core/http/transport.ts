import type { Dispatcher } from 'undici';
import { systemClock, type Clock } from '../clock.js';
import { CliError, DeadlineError, InterruptedError, NetworkError } from '../errors.js';
import { isLoopbackHost } from '../url.js';
import type { HttpRequest, HttpResponse, Send } from './types.js';
import type { UndiciRequest } from './undici.js';

export interface TransportOptions {
  timeoutMs: number;
  /**
   * Defaults to an agent that honours HTTPS_PROXY, HTTP_PROXY and NO_PROXY — for every host but loopback,
   * which is always reached directly (a proxy would see a plain-http bearer token and login password).
   */
  dispatcher?: Dispatcher;
  maxRedirects?: number;
  /** The largest answer body read; a larger one is refused, never read into memory whole. */
  maxBodyBytes?: number;
  /** false: a 3xx is the answer (webhook receivers are not followed elsewhere). Default true. */
  followRedirects?: boolean;
  /** Reads the time left before a request's deadline (default: the system clock). */
  clock?: Pick<Clock, 'now'>;
}

/** cli-contract.md §5: an answer body larger than 64 MiB is refused (exit 1). */
export const MAX_BODY_BYTES = 64 * 1024 * 1024;

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** OpenSSL's verdicts on a certificate chain (Node passes them on as error codes). */
const TLS_TRUST = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
]);

/** Whether a connection error's code says the certificate was not accepted (also what `cssctl doctor` checks). */
export const isCertificateError = (code: string): boolean =>
  TLS_TRUST.has(code) || code.startsWith('ERR_TLS_') || code.startsWith('CERT_');

/** The bottom layer: one HTTP exchange over undici, with a per-request timeout and same-origin redirects. */
export function createTransport(opts: TransportOptions): Send {
  const maxRedirects = opts.maxRedirects ?? 5;
  const maxBodyBytes = opts.maxBodyBytes ?? MAX_BODY_BYTES;
  // Node's timers overflow past 2^31-1 ms (a huge --timeout would otherwise fire at once).
  const timeoutMs = Math.min(opts.timeoutMs, 2_147_483_647);
  const clock = opts.clock ?? systemClock;
  // undici is loaded on the first request, and only the parts a request uses (see ./undici.ts).
  let undici:
    Promise<{ request: UndiciRequest; dispatcher: Dispatcher; createAgent: () => Dispatcher }> | undefined;
  const load = () =>
    (undici ??= import('./undici.js')
      .then((m) => m.loadUndici())
      .then((u) => ({
        request: u.request,
        dispatcher: opts.dispatcher ?? u.createDispatcher(),
        createAgent: u.createAgent,
      })));
  let direct: Dispatcher | undefined;

  return async function send(req: HttpRequest): Promise<HttpResponse> {
    const { request, dispatcher: proxied, createAgent } = await load();
    let current = req;
    for (let hop = 0; ; hop++) {
      // Loopback never goes through a proxy (as curl and Go do), whatever HTTP(S)_PROXY and NO_PROXY say.
      const dispatcher =
        opts.dispatcher ??
        (isLoopbackHost(new URL(current.url).hostname) ? (direct ??= createAgent()) : proxied);
      // A deadline (--wait-timeout) cuts this exchange's timeout to the time left before it.
      const left = current.deadline === undefined ? Infinity : current.deadline - clock.now();
      if (left <= 0) throw deadlinePassed(current);
      const cut = left < timeoutMs ? Math.max(1, Math.ceil(left)) : undefined;
      const res = await exchange(
        request,
        current,
        dispatcher,
        cut ?? timeoutMs,
        maxBodyBytes,
        cut !== undefined,
      );
      const location = res.headers.location;
      if (!REDIRECTS.has(res.status) || !location || opts.followRedirects === false) return res;
      if (hop >= maxRedirects) throw new CliError(`too many redirects (more than ${maxRedirects})`);
      const next = new URL(location, current.url);
      if (next.origin !== new URL(current.url).origin) {
        // Following would carry the bearer token to another host (or downgrade the scheme).
        throw new CliError(`refusing to follow a redirect to ${next.origin}: it is not the service's host`);
      }
      const asGet =
        res.status === 303 || ((res.status === 301 || res.status === 302) && current.method === 'POST');
      current = asGet
        ? { ...current, url: next.toString(), method: 'GET', body: undefined }
        : { ...current, url: next.toString() };
    }
  };
}

async function exchange(
  request: UndiciRequest,
  req: HttpRequest,
  dispatcher: Dispatcher,
  timeoutMs: number,
  maxBodyBytes: number,
  /** The timeout is what was left before the request's deadline: running out is a DeadlineError. */
  byDeadline: boolean,
): Promise<HttpResponse> {
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = req.signal ? AbortSignal.any([req.signal, timeout]) : timeout;
  try {
    const res = await request(req.url, {
      method: req.method as Dispatcher.HttpMethod,
      headers: req.headers,
      body: req.body,
      dispatcher,
      signal,
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
    });
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(res.headers)) {
      if (v !== undefined) headers[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
    }
    const body = await readCapped(res.body, Number(headers['content-length']), maxBodyBytes, req);
    return { status: res.statusCode, headers, body };
  } catch (err) {
    if (req.signal?.aborted) throw new InterruptedError();
    if (err instanceof CliError) throw err;
    const failure = toNetworkError(err, req, timeoutMs, timeout.aborted);
    if (byDeadline && failure.kind === 'timeout') throw deadlinePassed(req, failure);
    throw failure;
  }
}

function deadlinePassed(req: HttpRequest, cause?: unknown): DeadlineError {
  return new DeadlineError(`no answer from ${new URL(req.url).host} before the deadline`, { cause });
}

/** Reads a body as UTF-8, refusing (and closing) one larger than `max` bytes, declared or streamed. */
async function readCapped(
  stream: AsyncIterable<Buffer> & { destroy(): unknown },
  declared: number,
  max: number,
  req: HttpRequest,
): Promise<string> {
  const tooLarge = () => {
    stream.destroy();
    const mib = max / (1024 * 1024);
    return new CliError(
      `the answer from ${new URL(req.url).host} is larger than ${mib >= 1 ? `${mib} MiB` : `${max} bytes`}; refusing to read it`,
      { hint: 'narrow the request (--limit, filters), or check --base-url' },
    );
  };
  if (declared > max) throw tooLarge();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    size += chunk.length;
    if (size > max) throw tooLarge();
    chunks.push(chunk);
  }
  // As undici's text(): UTF-8 (malformed bytes become U+FFFD), a leading BOM dropped.
  const text = (chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size)).toString('utf8');
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

function toNetworkError(err: unknown, req: HttpRequest, timeoutMs: number, timedOut: boolean): NetworkError {
  const host = new URL(req.url).host;
  const e = err as { code?: string; name?: string; message?: string; cause?: { code?: string } };
  const code = e.code ?? e.cause?.code ?? '';
  if (
    timedOut ||
    code === 'UND_ERR_HEADERS_TIMEOUT' ||
    code === 'UND_ERR_BODY_TIMEOUT' ||
    e.name === 'TimeoutError'
  ) {
    return new NetworkError(`request to ${host} timed out after ${timeoutMs / 1000}s`, 'timeout', {
      cause: err,
      hint: 'raise --timeout if the service is slow',
    });
  }
  if (code === 'ECONNREFUSED') {
    return new NetworkError(`cannot connect to ${host}: connection refused`, 'refused', {
      cause: err,
      hint: 'is the service running, and is --base-url right?',
    });
  }
  if (code === 'ECONNRESET' || code === 'EPIPE' || code === 'UND_ERR_SOCKET' || code === 'UND_ERR_CLOSED') {
    return new NetworkError(`connection to ${host} was reset`, 'reset', { cause: err });
  }
  if (code === 'ERR_SSL_WRONG_VERSION_NUMBER' || code === 'ERR_SSL_HTTP_REQUEST') {
    // OpenSSL's "wrong version number": the port answered in plain HTTP.
    return new NetworkError(`${host} speaks plain HTTP, not HTTPS`, 'tls', {
      cause: err,
      hint: 'check the port; use http:// only for a loopback service (localhost, 127.0.0.0/8, [::1])',
    });
  }
  if (isCertificateError(code)) {
    const why = (e.message ?? code).split(';')[0];
    return new NetworkError(`the TLS certificate of ${host} is not accepted: ${why}`, 'tls', {
      cause: err,
      hint: 'to trust a private CA, set NODE_EXTRA_CA_CERTS=/path/to/ca.pem',
    });
  }
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
    return new NetworkError(`cannot resolve ${new URL(req.url).hostname}`, 'other', { cause: err });
  }
  return new NetworkError(`request to ${host} failed: ${e.message ?? String(err)}`, 'other', { cause: err });
}
