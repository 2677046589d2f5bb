// The local receiver behind `cssctl webhooks listen`: node:http on one address and path. Each delivery is
// checked over its exact raw bytes before anything else is done with it.
import { createHash } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SIGNATURE_HEADER, checkSignature, describeVerdict } from '../../core/webhook-signature.js';
import type { Delivery } from '../../api/webhooks.js';

export const MAX_DELIVERY_BYTES = 1024 * 1024;

/** How many bodies (as SHA-256 digests) the duplicate check remembers; the oldest are forgotten first. */
export const SEEN_LIMIT = 100_000;

export interface ForwardResult {
  status: number;
  body?: string;
  contentType?: string;
}

export interface Verified {
  delivery: Delivery;
  raw: Buffer;
  /** The target's answer when forwarding; `error` when it could not be reached. */
  forwarded?: ForwardResult | { error: string };
  /** The same raw body was already received (and answered 2xx) in this run. */
  duplicate?: boolean;
  /** Where --save wrote it. */
  saved?: string;
}

/** What `save` is given: the delivery as received. */
export interface Received {
  raw: Buffer;
  headers: IncomingHttpHeaders;
  /** When the whole body had been read. */
  receivedAt: Date;
  /** The payload's `event`, when it is a string. */
  event: string | undefined;
}

export interface Rejected {
  status: number;
  reason: string;
  method: string;
  /** The request target as received (for a message; may hold anything). */
  target: string;
  remote: string;
}

export interface ReceiverOptions {
  host: string;
  port: number;
  path: string;
  secret: string;
  maxBytes?: number;
  /** Relays the untouched body and signature header; throws when the target cannot be reached. */
  forward?: (raw: Buffer, headers: { signature: string; contentType: string }) => Promise<ForwardResult>;
  /** Only these events are handled; any other verified delivery is answered 200 and dropped unseen. */
  events?: ReadonlySet<string>;
  /** A payload `timestamp` further than `ms` from `now()` is answered 400. */
  tolerance?: { ms: number };
  /** Relay a duplicate to `forward` too (by default a duplicate is answered 200 and not relayed). */
  forwardDuplicates?: boolean;
  /** Keeps a verified, new delivery before it is forwarded; returns where. Throws when it cannot (→ 500). */
  save?: (r: Received) => string;
  /** Milliseconds since the epoch (a test clock). */
  now?: () => number;
  /** How many bodies the duplicate check remembers (default SEEN_LIMIT). */
  seenLimit?: number;
  onVerified: (v: Verified) => void;
  onRejected: (r: Rejected) => void;
}

/**
 * The bodies received in this run, by SHA-256 digest (32 bytes each, never the body), in arrival order;
 * past `limit` the oldest are forgotten, so memory stays bounded however long the receiver runs.
 */
export class SeenBodies {
  private readonly digests = new Set<string>();
  constructor(private readonly limit = SEEN_LIMIT) {}
  has(digest: string): boolean {
    return this.digests.has(digest);
  }
  add(digest: string): void {
    this.digests.delete(digest);
    this.digests.add(digest);
    while (this.digests.size > this.limit) {
      const oldest = this.digests.values().next().value as string;
      this.digests.delete(oldest);
    }
  }
  delete(digest: string): void {
    this.digests.delete(digest);
  }
  get size(): number {
    return this.digests.size;
  }
}

const ISO_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:?\d\d)$/i;

/** Why a payload timestamp is outside the tolerance, or undefined when it is within it. */
export function timestampProblem(timestamp: unknown, now: number, toleranceMs: number): string | undefined {
  if (typeof timestamp !== 'string' || !ISO_TIME.test(timestamp) || Number.isNaN(Date.parse(timestamp))) {
    return 'the payload has no ISO 8601 timestamp to check against --tolerance';
  }
  const skew = Date.parse(timestamp) - now;
  if (Math.abs(skew) <= toleranceMs) return undefined;
  const s = Math.round(Math.abs(skew) / 1000);
  return `the payload timestamp is ${s} s ${skew < 0 ? 'old' : 'in the future'}, outside --tolerance`;
}

export interface Receiver {
  /** The address actually bound (port 0 asks the system for a free one). */
  readonly host: string;
  readonly port: number;
  readonly url: string;
  /** Stops accepting, lets the deliveries in flight finish (up to `graceMs`), then closes every connection. */
  close(graceMs?: number): Promise<void>;
  /** The requests being handled now, and how many of them wait for the forward target's answer. */
  inFlight(): { requests: number; forwarding: number };
}

/** Starts listening; rejects with the listen error (EADDRINUSE…) and leaves nothing open behind. */
export async function startReceiver(opts: ReceiverOptions): Promise<Receiver> {
  const maxBytes = opts.maxBytes ?? MAX_DELIVERY_BYTES;
  const now = opts.now ?? Date.now;
  const seen = new SeenBodies(opts.seenLimit);
  // Saved once per run: a delivery saved and then not taken (the forward failed) is not saved again.
  const kept = new SeenBodies(opts.seenLimit);
  let active = 0;
  let forwarding = 0;
  let stopping = false;
  let drained: (() => void) | undefined;

  const server = createServer((req, res) => {
    active++;
    handle(req, res)
      .catch(() => {
        if (!res.headersSent && !res.destroyed) answer(res, 500, 'internal error');
        else res.destroy();
      })
      .finally(() => {
        active--;
        if (active === 0) drained?.();
      });
  });
  // A client that trickles its request cannot hold the receiver (or its shutdown) for long.
  server.requestTimeout = 30_000;
  server.headersTimeout = 10_000;

  function answer(res: ServerResponse, status: number, message: string, extra: Record<string, string> = {}) {
    const body = `${JSON.stringify({ status, message })}\n`;
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(body)),
      ...extra,
    };
    if (stopping) headers.connection = 'close';
    res.writeHead(status, headers).end(body);
  }

  function reject(req: IncomingMessage, res: ServerResponse, status: number, reason: string, extra = {}) {
    opts.onRejected({
      status,
      reason,
      method: req.method ?? '',
      target: req.url ?? '',
      remote: req.socket.remoteAddress ?? '',
    });
    answer(res, status, reason, extra);
  }

  /** Past `maxBytes` the rest is not read: the answer goes out and the connection is closed. */
  function tooLarge(req: IncomingMessage, res: ServerResponse): void {
    req.pause();
    reject(req, res, 413, `payload larger than ${maxBytes} bytes`, { connection: 'close' });
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? '').split('?')[0];
    if (path !== opts.path) return reject(req, res, 404, 'not found');
    if (req.method !== 'POST') return reject(req, res, 405, 'method not allowed', { allow: 'POST' });
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > maxBytes) return tooLarge(req, res);

    const raw = await readLimited(req, maxBytes);
    if (raw === undefined) return tooLarge(req, res);
    const receivedAt = new Date(now());

    const signature = req.headers[SIGNATURE_HEADER];
    const verdict = checkSignature(opts.secret, raw, signature);
    if (!verdict.valid) return reject(req, res, 401, describeVerdict(verdict));

    let parsed: unknown;
    try {
      parsed = JSON.parse(raw.toString('utf8'));
    } catch {
      return reject(req, res, 400, 'the body is not JSON');
    }
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
      return reject(req, res, 400, 'the body is not a JSON object');
    }
    const delivery = parsed as Delivery;
    const event = typeof delivery.event === 'string' ? delivery.event : undefined;

    // An event not asked for: taken (2xx, so the service does not retry it) and dropped without a word.
    if (opts.events && (event === undefined || !opts.events.has(event))) return answer(res, 200, 'ignored');

    if (opts.tolerance) {
      const problem = timestampProblem(delivery.timestamp, now(), opts.tolerance.ms);
      if (problem) return reject(req, res, 400, problem);
    }

    // Seen from here on, so a copy arriving while this one is handled counts as a duplicate; forgotten
    // again below when this one is not taken (not answered 2xx), so the service's retry is handled anew.
    const digest = createHash('sha256').update(raw).digest('hex');
    const duplicate = seen.has(digest);
    if (!duplicate) seen.add(digest);
    let taken = false;
    try {
      if (duplicate && !(opts.forward && opts.forwardDuplicates)) {
        opts.onVerified({ delivery, raw, duplicate: true });
        answer(res, 200, 'duplicate');
        return;
      }

      let saved: string | undefined;
      if (opts.save && !duplicate && !kept.has(digest)) {
        try {
          saved = opts.save({ raw, headers: req.headers, receivedAt, event });
          kept.add(digest);
        } catch (err) {
          const why = err instanceof Error ? err.message : String(err);
          // 500: the service keeps the delivery and retries it; nothing was forwarded.
          return reject(req, res, 500, `not saved: ${why}`);
        }
      }
      const extra = { ...(duplicate ? { duplicate: true } : {}), ...(saved ? { saved } : {}) };

      if (!opts.forward) {
        opts.onVerified({ delivery, raw, ...extra });
        taken = true;
        return answer(res, 200, 'verified');
      }
      let result: ForwardResult;
      forwarding++;
      try {
        result = await opts.forward(raw, {
          signature: signature as string,
          contentType: req.headers['content-type'] ?? 'application/json',
        });
      } catch (err) {
        const error = err instanceof Error ? err.message : String(err);
        opts.onVerified({ delivery, raw, forwarded: { error }, ...extra });
        return answer(res, 502, 'the forward target could not be reached');
      } finally {
        forwarding--;
      }
      opts.onVerified({ delivery, raw, forwarded: result, ...extra });
      taken = result.status >= 200 && result.status < 300;
      const body = result.body ?? '';
      res.writeHead(result.status, {
        'content-type': result.contentType ?? 'text/plain; charset=utf-8',
        'content-length': String(Buffer.byteLength(body)),
        ...(stopping ? { connection: 'close' } : {}),
      });
      res.end(body);
    } finally {
      if (!duplicate && !taken) seen.delete(digest);
    }
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const hostPart = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  let closing: Promise<void> | undefined;

  return {
    host: address.address,
    port: address.port,
    url: `http://${hostPart}:${address.port}${opts.path}`,
    close(graceMs = 30_000) {
      closing ??= (async () => {
        stopping = true;
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeIdleConnections();
        if (active > 0) {
          await new Promise<void>((resolve) => {
            drained = resolve;
            setTimeout(resolve, graceMs).unref();
          });
        }
        server.closeAllConnections();
        await closed;
      })();
      return closing;
    },
    inFlight: () => ({ requests: active, forwarding }),
  };
}

/** The body as bytes, or undefined as soon as it passes `max` (the rest is left unread). */
function readLimited(req: IncomingMessage, max: number): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > max) {
        req.off('data', onData);
        req.off('end', onEnd);
        resolve(undefined);
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => resolve(Buffer.concat(chunks));
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', reject);
    req.on('close', () => {
      if (!req.complete) reject(new Error('the client went away'));
    });
  });
}
