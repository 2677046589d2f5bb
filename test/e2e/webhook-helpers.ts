// What the webhook end-to-end tests share: a long-running `cssctl webhooks listen`, and a receiver written for
// the test that checks signatures with node:crypto directly, never with cssctl's signing module.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cliSpawn } from './harness.js';

export function hmac(secret: string, body: Buffer | string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

export async function until(ok: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!ok()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

// ---- a long-running cssctl -------------------------------------------------------------------

export interface Running {
  child: ChildProcessWithoutNullStreams;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>;
  /** The receiver URL from the "Listening on …" line. */
  url: string;
}

const running: Running[] = [];

/**
 * `cssctl webhooks listen --port 0 <args>` with `env`; resolves once it listens. With `shell`, it is started
 * through `sh -c '<shell>; exec node cssctl …'` (for a ulimit).
 */
export async function startListen(
  env: Record<string, string | undefined>,
  args: string[],
  opts: { shell?: string } = {},
): Promise<Running> {
  const clean: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined) clean[k] = v;
  const [cmd, argv] = cliSpawn(['webhooks', 'listen', '--port', '0', ...args]);
  const child = opts.shell
    ? spawn('sh', ['-c', `${opts.shell}; exec "$0" "$@"`, cmd, ...argv], {
        env: clean,
        stdio: ['pipe', 'pipe', 'pipe'],
      })
    : spawn(cmd, argv, { env: clean, stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>((resolve) =>
    child.on('close', (code, signal) => resolve({ code, signal, at: Date.now() })),
  );
  const r: Running = { child, stdout: () => out, stderr: () => err, exited, url: '' };
  running.push(r);
  let done = false;
  void exited.then(() => (done = true));
  await until(() => /Listening on /.test(err) || done, 'listen to start');
  const m = /Listening on (http:\/\/\S+?)[,\s]/.exec(err);
  if (!m) throw new Error(`listen did not start: ${err}`);
  r.url = m[1]!;
  return r;
}

/** Kills (SIGKILL) every listener still running; for afterEach. */
export async function killListeners(): Promise<void> {
  for (const r of running.splice(0)) {
    if (r.child.exitCode === null && r.child.signalCode === null) r.child.kill('SIGKILL');
    await r.exited;
  }
}

// ---- a receiver written for the test ----------------------------------------------------------

export interface Hit {
  headers: IncomingHttpHeaders;
  raw: Buffer;
  valid: boolean;
}

export async function testReceiver(opts: { secret: string; status?: number; delayMs?: number }) {
  const hits: Hit[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const given = Buffer.from(String(req.headers['x-service-signature'] ?? ''));
      const expected = Buffer.from(hmac(opts.secret, raw));
      const valid = given.length === expected.length && timingSafeEqual(given, expected);
      hits.push({ headers: req.headers, raw, valid });
      const answer = () =>
        valid
          ? res.writeHead(opts.status ?? 204).end()
          : res.writeHead(401, { 'content-type': 'text/plain' }).end('bad signature');
      if (opts.delayMs) setTimeout(answer, opts.delayMs);
      else answer();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/receive`;
  return { hits, url, close: () => new Promise<void>((r) => server.close(() => r())) };
}

export async function post(url: string, body: string | Buffer, headers: Record<string, string> = {}) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: new Uint8Array(body instanceof Buffer ? body : Buffer.from(body)),
  });
  return { status: res.status, body: await res.text() };
}

/** A scan started through the sandbox API directly (not through `scans create`), for its deliveries. */
export async function startScan(baseUrl: string, token: string, alias: string): Promise<string> {
  const res = await fetch(`${baseUrl}/api/v1/scans`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'x-tenant-slug': 'acme',
      'content-type': 'application/json',
    },
    body: JSON.stringify({ connection_alias: alias }),
  });
  if (res.status !== 201) throw new Error(`POST /scans answered ${res.status}`);
  return ((await res.json()) as { scan_id: string }).scan_id;
}
