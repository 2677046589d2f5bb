// The local receiver behind `cssctl webhooks listen`: node:http on one address and path. Each delivery is
// checked over its exact raw bytes before anything else is done with it.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SIGNATURE_HEADER, checkSignature, describeVerdict } from '../../core/webhook-signature.js';
import type { Delivery } from '../../api/webhooks.js';

export const MAX_DELIVERY_BYTES = 1024 * 1024;

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
  onVerified: (v: Verified) => void;
  onRejected: (r: Rejected) => void;
}

export interface Receiver {
  /** The address actually bound (port 0 asks the system for a free one). */
  readonly host: string;
  readonly port: number;
  readonly url: string;
  /** Stops accepting, lets the deliveries in flight finish (up to `graceMs`), then closes every connection. */
  close(graceMs?: number): Promise<void>;
}

/** Starts listening; rejects with the listen error (EADDRINUSE…) and leaves nothing open behind. */
export async function startReceiver(opts: ReceiverOptions): Promise<Receiver> {
  const maxBytes = opts.maxBytes ?? MAX_DELIVERY_BYTES;
  let active = 0;
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

    const signature = req.headers[SIGNATURE_HEADER];
    const verdict = checkSignature(opts.secret, raw, signature);
    if (!verdict.valid) return reject(req, res, 401, describeVerdict(verdict));

    let delivery: unknown;
    try {
      delivery = JSON.parse(raw.toString('utf8'));
    } catch {
      return reject(req, res, 400, 'the body is not JSON');
    }
    if (!delivery || typeof delivery !== 'object' || Array.isArray(delivery)) {
      return reject(req, res, 400, 'the body is not a JSON object');
    }

    if (!opts.forward) {
      opts.onVerified({ delivery: delivery as Delivery, raw });
      return answer(res, 200, 'verified');
    }
    let result: ForwardResult;
    try {
      result = await opts.forward(raw, {
        signature: signature as string,
        contentType: req.headers['content-type'] ?? 'application/json',
      });
    } catch (err) {
      const error = err instanceof Error ? err.message : String(err);
      opts.onVerified({ delivery: delivery as Delivery, raw, forwarded: { error } });
      return answer(res, 502, 'the forward target could not be reached');
    }
    opts.onVerified({ delivery: delivery as Delivery, raw, forwarded: result });
    const body = result.body ?? '';
    res.writeHead(result.status, {
      'content-type': result.contentType ?? 'text/plain; charset=utf-8',
      'content-length': String(Buffer.byteLength(body)),
      ...(stopping ? { connection: 'close' } : {}),
    });
    res.end(body);
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
