// startSandbox(): the HTTP side of the sandbox — sockets, recording, and the faults that act on
// the connection itself (slow, cut, stall-body, hang). What to answer is decided in app.ts.
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { apiPathOf, handleApi, type ApiResponse } from './app.js';
import { demoCredentials } from './data.js';
import { describeFault } from './faults.js';
import { SandboxState } from './state.js';
import type { Fault, RecordedRequest, Sandbox, SandboxOptions } from './types.js';

export type { Fault, RecordedRequest, Sandbox, SandboxOptions } from './types.js';

const MAX_BODY_BYTES = 1024 * 1024;

export function defaultOptions(): SandboxOptions {
  return {
    host: '127.0.0.1',
    port: 0,
    tokenTtlSeconds: 3600,
    rateLimit: 120,
    scanRateLimit: 10,
    loginRateLimit: 20,
    rateWindowSeconds: 60,
    maxPageSize: 100,
    defaultPageSize: 50,
    scanStepMs: 1500,
    findingsPerWorkspace: 2500,
    refreshOmit: [],
    faults: [],
    seed: 1,
    jwtSecret: randomBytes(32).toString('hex'),
    webhookAttempts: 5,
    webhookRetryMs: 1000,
    complianceThreshold: 70,
    complianceEndpoint: true,
    clockSkewSeconds: 0,
  };
}

/** Reads the whole body; past 1 MiB it keeps draining (so an answer can still be sent) but stores no more. */
async function readBody(req: IncomingMessage): Promise<{ text: string; tooLarge: boolean }> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buf = chunk as Buffer;
    size += buf.length;
    if (size <= MAX_BODY_BYTES) chunks.push(buf);
  }
  return { text: Buffer.concat(chunks).toString('utf8'), tooLarge: size > MAX_BODY_BYTES };
}

function flatHeaders(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headersDistinct)) {
    if (value) out[name] = value.join(', ');
  }
  return out;
}

export async function startSandbox(opts: Partial<SandboxOptions> = {}): Promise<Sandbox> {
  const options: SandboxOptions = { ...defaultOptions(), ...opts };
  const state = new SandboxState(options);
  // Aborts the waits of slow and stalled answers when the sandbox closes.
  const closing = new AbortController();

  async function wait(ms: number): Promise<boolean> {
    try {
      await sleep(ms, undefined, { signal: closing.signal });
      return true;
    } catch {
      return false;
    }
  }

  function cut(res: ServerResponse, record: RecordedRequest, started: number): void {
    record.durationMs = Date.now() - started;
    // resetAndDestroy sends a TCP RST: the client sees ECONNRESET, not a clean close.
    res.socket?.resetAndDestroy();
  }

  /** Holds the request unanswered until the client leaves or the sandbox closes. */
  async function hang(res: ServerResponse, record: RecordedRequest, started: number): Promise<void> {
    await new Promise<void>((resolve) => {
      if (closing.signal.aborted || res.destroyed) return resolve();
      closing.signal.addEventListener('abort', () => resolve(), { once: true });
      res.once('close', () => resolve());
    });
    record.durationMs = Date.now() - started;
    res.destroy();
  }

  async function send(
    res: ServerResponse,
    response: ApiResponse,
    record: RecordedRequest,
    started: number,
    stallMs: number,
  ): Promise<void> {
    const payload = response.body === undefined ? '' : JSON.stringify(response.body);
    const headers: Record<string, string> = {
      ...response.headers,
      'X-Request-Id': record.id,
      'Cache-Control': 'no-store',
      // The service's clock as a client whose own is off sees it (SANDBOX_CLOCK_SKEW_S).
      Date: new Date(Date.now() + state.clockSkewSeconds * 1000).toUTCString(),
      'Content-Length': String(Buffer.byteLength(payload)),
    };
    if (response.body !== undefined) headers['Content-Type'] = 'application/json; charset=utf-8';
    // Record before answering, so a test that has its answer also sees the status here.
    record.status = response.status;
    if (response.replayed) record.replayed = true;
    if (res.destroyed) return;
    res.writeHead(response.status, headers);
    if (stallMs > 0) {
      res.flushHeaders();
      if (!(await wait(stallMs)) || res.destroyed) return;
    }
    record.durationMs = Date.now() - started;
    res.end(payload);
  }

  async function onRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const started = Date.now();
    const url = new URL(req.url ?? '/', 'http://sandbox.invalid');
    const method = (req.method ?? 'GET').toUpperCase();
    const body = await readBody(req);
    const record: RecordedRequest = {
      id: `req_${randomBytes(8).toString('hex')}`,
      method,
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      headers: flatHeaders(req),
      body: body.text,
      status: 0,
      time: started,
      durationMs: 0,
    };
    state.requests.push(record);

    const fault: Fault | undefined = state.faults.take(method, apiPathOf(url.pathname) ?? url.pathname);
    if (fault) record.fault = describeFault(fault);
    if (fault?.kind === 'cut' && !fault.after) return cut(res, record, started);
    if (fault?.kind === 'hang') return hang(res, record, started);

    const response = await handleApi(
      state,
      {
        method,
        path: url.pathname,
        query: url.searchParams,
        headers: req.headers,
        body: body.text,
        bodyTooLarge: body.tooLarge,
        ip: req.socket.remoteAddress ?? 'unknown',
      },
      fault?.kind === 'status' ? fault : undefined,
    );

    if (fault?.kind === 'cut') return cut(res, record, started); // after: the work is done, the answer lost
    // slow: the request has been handled; only the answer (headers too) is late.
    if (fault?.kind === 'slow' && !(await wait(fault.ms))) return;
    await send(res, response, record, started, fault?.kind === 'stall-body' ? fault.ms : 0);
  }

  const server = createServer({ keepAlive: true }, (req, res) => {
    onRequest(req, res).catch((err: unknown) => {
      console.error('sandbox: request failed', err);
      if (!res.headersSent && !res.destroyed) res.writeHead(500).end();
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  let closed: Promise<void> | undefined;

  return {
    url: `http://${host}:${port}`,
    port,
    requests: state.requests,
    credentials: demoCredentials(),
    get deliveries() {
      return state.webhooks.deliveries;
    },
    close() {
      closed ??= new Promise<void>((resolve) => {
        state.stop();
        closing.abort();
        server.close(() => resolve());
        // Keep-alive sockets would hold close() open until they time out.
        server.closeAllConnections();
      });
      return closed;
    },
    clearRequests() {
      state.requests.length = 0;
    },
    injectFaults(...faults: Fault[]) {
      state.faults.add(...faults);
    },
    clearFaults() {
      state.faults.clear();
    },
    setTokenTtl(seconds: number) {
      state.tokenTtlSeconds = seconds;
    },
    setClockSkew(seconds: number) {
      state.clockSkewSeconds = seconds;
    },
    revokeAllRefreshTokens() {
      state.tokens.revokeAllRefresh();
    },
    async issueAccessToken(email: string, ttlSeconds: number) {
      const user = state.userByEmail(email);
      if (!user) throw new Error(`no seeded user ${email}`);
      return state.tokens.issueAccess(user, ttlSeconds);
    },
    reset() {
      state.reset();
    },
  };
}
