import {
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import dns from 'node:dns';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CliError, DeadlineError, InterruptedError, NetworkError } from '../../src/core/errors.js';
import { createTransport } from '../../src/core/http/transport.js';
import type { HttpRequest } from '../../src/core/http/types.js';

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

interface TestServer {
  server: Server;
  port: number;
  origin: string;
  seen: Seen[];
}

const servers: Server[] = [];

async function startServer(
  handler: (req: IncomingMessage, res: ServerResponse, body: string) => void,
): Promise<TestServer> {
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      handler(req, res, body);
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return { server, port, origin: `http://127.0.0.1:${port}`, seen };
}

async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const port = (s.address() as AddressInfo).port;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}

function get(url: string, extra: Partial<HttpRequest> = {}): HttpRequest {
  return { method: 'GET', url, headers: { accept: 'application/json' }, ...extra };
}

async function failure(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (err) {
    return err;
  }
  throw new Error('expected the request to fail');
}

const PROXY_VARS = ['HTTP_PROXY', 'http_proxy', 'HTTPS_PROXY', 'https_proxy', 'NO_PROXY', 'no_proxy'];
const savedEnv: Record<string, string | undefined> = {};

beforeAll(() => {
  // Requests to the loopback servers below must not wander off to a proxy from the developer's environment.
  for (const k of PROXY_VARS) {
    savedEnv[k] = process.env[k];
    delete process.env[k];
  }
});

afterAll(() => {
  for (const k of PROXY_VARS) {
    if (savedEnv[k] === undefined) delete process.env[k];
    else process.env[k] = savedEnv[k];
  }
});

afterEach(async () => {
  for (const k of PROXY_VARS) delete process.env[k];
  await Promise.all(
    servers.splice(0).map(
      (s) =>
        new Promise<void>((resolve) => {
          s.closeAllConnections();
          s.close(() => resolve());
        }),
    ),
  );
});

describe('createTransport', () => {
  it('returns status, lower-cased headers and body of a 200', async () => {
    const srv = await startServer((_req, res) => {
      res.setHeader('X-RateLimit-Remaining', '41');
      res.setHeader('Content-Type', 'application/json');
      res.setHeader('X-Request-ID', 'abc');
      res.end('{"ok":true}');
    });
    const send = createTransport({ timeoutMs: 2000 });
    const res = await send(
      get(`${srv.origin}/api/v1/connections?limit=5`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-tenant-slug': 'acme' },
        body: '{"alias":"a"}',
      }),
    );
    expect(res.status).toBe(200);
    expect(res.body).toBe('{"ok":true}');
    expect(res.headers['x-ratelimit-remaining']).toBe('41');
    expect(res.headers['x-request-id']).toBe('abc');
    expect(res.headers['content-type']).toBe('application/json');
    expect(Object.keys(res.headers).every((k) => k === k.toLowerCase())).toBe(true);
    expect(srv.seen).toHaveLength(1);
    expect(srv.seen[0]).toMatchObject({
      method: 'POST',
      url: '/api/v1/connections?limit=5',
      body: '{"alias":"a"}',
    });
    expect(srv.seen[0]!.headers['x-tenant-slug']).toBe('acme');
  });

  it('returns error statuses as responses, not exceptions', async () => {
    const srv = await startServer((_req, res) => {
      res.statusCode = 409;
      res.end('{"detail":"exists"}');
    });
    const res = await createTransport({ timeoutMs: 2000 })(get(`${srv.origin}/x`));
    expect(res.status).toBe(409);
    expect(res.body).toBe('{"detail":"exists"}');
  });

  it('a server that never answers is a timeout NetworkError after about timeoutMs', async () => {
    const srv = await startServer(() => {
      // never answers
    });
    const send = createTransport({ timeoutMs: 200 });
    const started = Date.now();
    const err = await failure(send(get(`${srv.origin}/slow`)));
    const elapsed = Date.now() - started;
    expect(err).toBeInstanceOf(NetworkError);
    expect((err as NetworkError).kind).toBe('timeout');
    expect(elapsed).toBeGreaterThanOrEqual(150);
    expect(elapsed).toBeLessThan(1500);
  });

  it('a body that stalls midway is a timeout too', async () => {
    const srv = await startServer((_req, res) => {
      res.writeHead(200, { 'content-length': '100' });
      res.write('{"partial":');
    });
    const err = await failure(createTransport({ timeoutMs: 200 })(get(`${srv.origin}/stall`)));
    expect(err).toBeInstanceOf(NetworkError);
    expect((err as NetworkError).kind).toBe('timeout');
  });

  it('a large --timeout (beyond the 32-bit timer limit) does not make requests fail at once', async () => {
    const srv = await startServer((_req, res) => {
      setTimeout(() => res.end('late but fine'), 50);
    });
    // --timeout 3000000 (about 35 days) passes resolveSettings; it must not turn into a 1 ms timeout.
    const res = await createTransport({ timeoutMs: 3_000_000_000 })(get(`${srv.origin}/x`));
    expect(res.body).toBe('late but fine');
  });

  it('a server that destroys the socket is a reset NetworkError', async () => {
    const srv = await startServer((req) => {
      req.socket.destroy();
    });
    const err = await failure(createTransport({ timeoutMs: 2000 })(get(`${srv.origin}/reset`)));
    expect(err).toBeInstanceOf(NetworkError);
    expect((err as NetworkError).kind).toBe('reset');
  });

  it('a connection closed in the middle of the body is a reset', async () => {
    const srv = await startServer((req, res) => {
      res.writeHead(200, { 'content-length': '1000' });
      res.write('{"partial":', () => req.socket.destroy());
    });
    const err = await failure(createTransport({ timeoutMs: 2000 })(get(`${srv.origin}/cut`)));
    expect(err).toBeInstanceOf(NetworkError);
    expect((err as NetworkError).kind).toBe('reset');
  });

  it('a closed port is a refused NetworkError', async () => {
    const port = await closedPort();
    const err = await failure(createTransport({ timeoutMs: 2000 })(get(`http://127.0.0.1:${port}/x`)));
    expect(err).toBeInstanceOf(NetworkError);
    expect((err as NetworkError).kind).toBe('refused');
    expect((err as NetworkError).message).toContain(`127.0.0.1:${port}`);
  });

  it('follows a same-origin 307, keeping method, body and the Authorization header', async () => {
    const srv = await startServer((req, res) => {
      if (req.url === '/api/v1/old') {
        res.writeHead(307, { location: '/api/v1/new?x=1' });
        res.end();
      } else {
        res.end(JSON.stringify({ auth: req.headers.authorization ?? null }));
      }
    });
    const res = await createTransport({ timeoutMs: 2000 })(
      get(`${srv.origin}/api/v1/old`, {
        method: 'POST',
        headers: { authorization: 'Bearer tok-123', 'content-type': 'application/json' },
        body: '{"a":1}',
      }),
    );
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toStrictEqual({ auth: 'Bearer tok-123' });
    expect(srv.seen.map((s) => [s.method, s.url, s.body])).toStrictEqual([
      ['POST', '/api/v1/old', '{"a":1}'],
      ['POST', '/api/v1/new?x=1', '{"a":1}'],
    ]);
  });

  it('a 303 after a POST is followed as a GET without the body', async () => {
    const srv = await startServer((req, res) => {
      if (req.url === '/a') {
        res.writeHead(303, { location: `http://127.0.0.1:${(srv.server.address() as AddressInfo).port}/b` });
        res.end();
      } else res.end('done');
    });
    const res = await createTransport({ timeoutMs: 2000 })(
      get(`${srv.origin}/a`, { method: 'POST', body: 'x' }),
    );
    expect(res.body).toBe('done');
    expect(srv.seen.map((s) => [s.method, s.url, s.body])).toStrictEqual([
      ['POST', '/a', 'x'],
      ['GET', '/b', ''],
    ]);
  });

  it('refuses a redirect to another origin, and the other server receives nothing', async () => {
    const other = await startServer((_req, res) => res.end('stolen'));
    const srv = await startServer((_req, res) => {
      res.writeHead(307, { location: `${other.origin}/steal` });
      res.end();
    });
    const err = await failure(
      createTransport({ timeoutMs: 2000 })(
        get(`${srv.origin}/x`, { headers: { authorization: 'Bearer secret-tok' } }),
      ),
    );
    expect(err).toBeInstanceOf(CliError);
    expect((err as Error).message).toMatch(/redirect/i);
    expect(srv.seen).toHaveLength(1);
    expect(other.seen).toHaveLength(0);
  });

  it('refuses a redirect to the same port under another host name', async () => {
    const srv = await startServer((req, res) => {
      if (req.headers.host?.startsWith('localhost')) {
        res.end('should not get here');
        return;
      }
      res.writeHead(302, { location: `http://localhost:${(srv.server.address() as AddressInfo).port}/x` });
      res.end();
    });
    const err = await failure(createTransport({ timeoutMs: 2000 })(get(`${srv.origin}/x`)));
    expect(err).toBeInstanceOf(CliError);
    expect(srv.seen).toHaveLength(1);
  });

  it('stops after too many redirects', async () => {
    const srv = await startServer((_req, res) => {
      res.writeHead(302, { location: '/loop' });
      res.end();
    });
    const err = await failure(
      createTransport({ timeoutMs: 2000, maxRedirects: 3 })(get(`${srv.origin}/loop`)),
    );
    expect(err).toBeInstanceOf(CliError);
    expect((err as Error).message).toMatch(/too many redirects/);
    expect(srv.seen).toHaveLength(4);
  });

  it('an already aborted signal is an InterruptedError', async () => {
    const srv = await startServer((_req, res) => res.end('x'));
    const ac = new AbortController();
    ac.abort();
    const err = await failure(
      createTransport({ timeoutMs: 2000 })(get(`${srv.origin}/x`, { signal: ac.signal })),
    );
    expect(err).toBeInstanceOf(InterruptedError);
  });

  it('aborting during a request is an InterruptedError, at once', async () => {
    const srv = await startServer(() => {
      // never answers
    });
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 50);
    const started = Date.now();
    const err = await failure(
      createTransport({ timeoutMs: 5000 })(get(`${srv.origin}/x`, { signal: ac.signal })),
    );
    expect(err).toBeInstanceOf(InterruptedError);
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('a signal that is not aborted does not get in the way', async () => {
    const srv = await startServer((_req, res) => res.end('fine'));
    const ac = new AbortController();
    const res = await createTransport({ timeoutMs: 2000 })(get(`${srv.origin}/x`, { signal: ac.signal }));
    expect(res.body).toBe('fine');
  });
});

describe('a request deadline (--wait-timeout)', () => {
  it('cuts the timeout to the time left: a server that never answers is a DeadlineError at the deadline', async () => {
    const srv = await startServer(() => {
      // never answers
    });
    const started = Date.now();
    const err = await failure(
      createTransport({ timeoutMs: 30_000 })(get(`${srv.origin}/x`, { deadline: Date.now() + 200 })),
    );
    const elapsed = Date.now() - started;
    expect(err).toBeInstanceOf(DeadlineError);
    expect((err as Error).message).toBe(`no answer from 127.0.0.1:${srv.port} before the deadline`);
    expect(elapsed).toBeGreaterThanOrEqual(150);
    expect(elapsed).toBeLessThan(1500);
  });

  it('a body that stalls is cut at the deadline too', async () => {
    const srv = await startServer((_req, res) => {
      res.writeHead(200, { 'content-length': '100' });
      res.write('{"partial":');
    });
    const started = Date.now();
    const err = await failure(
      createTransport({ timeoutMs: 30_000 })(get(`${srv.origin}/x`, { deadline: Date.now() + 200 })),
    );
    expect(err).toBeInstanceOf(DeadlineError);
    expect(Date.now() - started).toBeLessThan(1500);
  });

  it('a deadline already passed sends nothing', async () => {
    const srv = await startServer((_req, res) => res.end('x'));
    const err = await failure(
      createTransport({ timeoutMs: 2000 })(get(`${srv.origin}/x`, { deadline: Date.now() - 1 })),
    );
    expect(err).toBeInstanceOf(DeadlineError);
    expect(srv.seen).toHaveLength(0);
  });

  it('reads the time left on the clock it is given', async () => {
    const srv = await startServer((_req, res) => res.end('x'));
    const clock = { now: () => 1_000 };
    const send = createTransport({ timeoutMs: 2000, clock });
    expect((await send(get(`${srv.origin}/x`, { deadline: 1_500 }))).body).toBe('x');
    expect(await failure(send(get(`${srv.origin}/x`, { deadline: 1_000 })))).toBeInstanceOf(DeadlineError);
    expect(srv.seen).toHaveLength(1);
  });

  it('a deadline later than the timeout leaves the timeout as it was: a timeout NetworkError', async () => {
    const srv = await startServer(() => {
      // never answers
    });
    const err = await failure(
      createTransport({ timeoutMs: 200 })(get(`${srv.origin}/x`, { deadline: Date.now() + 60_000 })),
    );
    expect(err).toBeInstanceOf(NetworkError);
    expect((err as NetworkError).kind).toBe('timeout');
  });

  it('Ctrl-C before the deadline is still an InterruptedError, at once', async () => {
    const srv = await startServer(() => {
      // never answers
    });
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 50);
    const started = Date.now();
    const err = await failure(
      createTransport({ timeoutMs: 30_000 })(
        get(`${srv.origin}/x`, { signal: ac.signal, deadline: Date.now() + 5_000 }),
      ),
    );
    expect(err).toBeInstanceOf(InterruptedError);
    expect(Date.now() - started).toBeLessThan(1000);
  });
});

describe('proxy support', () => {
  interface Proxy {
    port: number;
    seen: string[];
  }

  /** A tiny forward proxy: absolute-form requests are forwarded, CONNECT is tunnelled. */
  async function startProxy(): Promise<Proxy> {
    const seen: string[] = [];
    const server = createServer((req, res) => {
      seen.push(`${req.method} ${req.url}`);
      const target = new URL(req.url ?? '');
      const upstream = httpRequest(
        {
          host: '127.0.0.1', // every test host lives here
          port: target.port,
          path: `${target.pathname}${target.search}`,
          method: req.method,
          headers: req.headers,
        },
        (up) => {
          res.writeHead(up.statusCode ?? 502, up.headers);
          up.pipe(res);
        },
      );
      upstream.on('error', () => {
        res.statusCode = 502;
        res.end();
      });
      req.pipe(upstream);
    });
    server.on('connect', (req: IncomingMessage, client: Socket, head: Buffer) => {
      seen.push(`CONNECT ${req.url}`);
      const port = (req.url ?? '').split(':').pop();
      const up = connect(Number(port), '127.0.0.1', () => {
        client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        up.write(head);
        up.pipe(client);
        client.pipe(up);
      });
      up.on('error', () => client.destroy());
      client.on('error', () => up.destroy());
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return { port: (server.address() as AddressInfo).port, seen };
  }

  // A name that is not loopback (so it may be proxied) yet resolves, in this process only, to 127.0.0.1:
  // the proxy tests never look a name up in DNS and never leave the machine.
  const REMOTE = 'scanner.localhost';
  const looked: string[] = [];
  let realLookup: typeof dns.lookup;
  beforeAll(() => {
    realLookup = dns.lookup;
    const fake = (host: string, ...rest: unknown[]) => {
      looked.push(host);
      return (realLookup as (...a: unknown[]) => void)(host === REMOTE ? '127.0.0.1' : host, ...rest);
    };
    (dns as { lookup: unknown }).lookup = fake;
  });
  afterAll(() => {
    (dns as { lookup: unknown }).lookup = realLookup;
  });

  it('sends requests to other hosts through HTTP_PROXY', async () => {
    const target = await startServer((req, res) => res.end(`via proxy, auth=${req.headers.authorization}`));
    const proxy = await startProxy();
    process.env.HTTP_PROXY = `http://127.0.0.1:${proxy.port}`;
    const send = createTransport({ timeoutMs: 2000 });
    const res = await send(
      get(`http://${REMOTE}:${target.port}/api/v1/connections`, { headers: { authorization: 'Bearer t' } }),
    );
    expect(res.status).toBe(200);
    expect(res.body).toBe('via proxy, auth=Bearer t');
    expect(proxy.seen).toEqual([`GET http://${REMOTE}:${target.port}/api/v1/connections`]);
    expect(target.seen).toHaveLength(1);
  });

  it('lower-case http_proxy works too', async () => {
    const target = await startServer((_req, res) => res.end('ok'));
    const proxy = await startProxy();
    process.env.http_proxy = `http://127.0.0.1:${proxy.port}`;
    const res = await createTransport({ timeoutMs: 2000 })(get(`http://${REMOTE}:${target.port}/x`));
    expect(res.body).toBe('ok');
    expect(proxy.seen).toHaveLength(1);
  });

  it('NO_PROXY bypasses the proxy for a listed host', async () => {
    const target = await startServer((_req, res) => res.end('direct'));
    const proxy = await startProxy();
    process.env.HTTP_PROXY = `http://127.0.0.1:${proxy.port}`;
    process.env.NO_PROXY = REMOTE;
    looked.length = 0;
    const res = await createTransport({ timeoutMs: 2000 })(get(`http://${REMOTE}:${target.port}/x`));
    expect(res.body).toBe('direct');
    expect(looked).toContain(REMOTE);
    expect(proxy.seen).toHaveLength(0);
    expect(target.seen).toHaveLength(1);
  });

  it.each([
    ['127.0.0.1', '127.0.0.1', 'HTTP_PROXY'],
    ['127.0.0.2', '127.0.0.2', 'http_proxy'],
    ['localhost', '127.0.0.1', 'HTTP_PROXY'],
    ['[::1]', '::1', 'http_proxy'],
  ])(
    'never sends plain-http loopback traffic (%s, served on %s) through %s: the proxy would see the token',
    async (host, listen, variable) => {
      const seen: string[] = [];
      const target = createServer((req, res) => {
        seen.push(`${req.headers.authorization}`);
        res.end('direct');
      });
      servers.push(target);
      await new Promise<void>((resolve) => target.listen(0, listen, resolve));
      const proxy = await startProxy();
      process.env[variable] = `http://127.0.0.1:${proxy.port}`;
      const port = (target.address() as AddressInfo).port;
      const res = await createTransport({ timeoutMs: 2000 })(
        get(`http://${host}:${port}/api/v1/auth/login`, { headers: { authorization: 'Bearer secret' } }),
      );
      expect(res.body).toBe('direct');
      expect(proxy.seen).toEqual([]);
      expect(seen).toEqual(['Bearer secret']);
    },
  );

  it('never tunnels https to loopback through HTTPS_PROXY either', async () => {
    const hellos: number[] = [];
    const target = createServer();
    // A TLS ClientHello arrives here directly; this server speaks no TLS, so the request then fails.
    target.on('connection', (socket: Socket) => {
      hellos.push(1);
      socket.destroy();
    });
    servers.push(target);
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
    const proxy = await startProxy();
    process.env.HTTPS_PROXY = `http://127.0.0.1:${proxy.port}`;
    process.env.HTTP_PROXY = `http://127.0.0.1:${proxy.port}`;
    const port = (target.address() as AddressInfo).port;
    await failure(createTransport({ timeoutMs: 2000 })(get(`https://127.0.0.1:${port}/x`)));
    expect(proxy.seen).toEqual([]);
    expect(hellos.length).toBeGreaterThan(0);
  });

  it('without proxy variables the request goes direct', async () => {
    const target = await startServer((_req, res) => res.end('direct'));
    const proxy = await startProxy();
    const res = await createTransport({ timeoutMs: 2000 })(get(`${target.origin}/x`));
    expect(res.body).toBe('direct');
    expect(proxy.seen).toHaveLength(0);
  });

  it('a proxy that refuses connections is reported as a NetworkError', async () => {
    const target = await startServer((_req, res) => res.end('direct'));
    process.env.HTTP_PROXY = `http://127.0.0.1:${await closedPort()}`;
    const err = await failure(createTransport({ timeoutMs: 2000 })(get(`http://${REMOTE}:${target.port}/x`)));
    expect(err).toBeInstanceOf(NetworkError);
    expect(target.seen).toHaveLength(0);
  });
});

describe('answer size', () => {
  it('refuses a streamed body past the cap with one clear error, and stops reading it', async () => {
    const TOTAL = 256 * 1024 * 1024;
    let written = 0;
    let closed = false;
    const srv = await startServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(64 * 1024, 'a');
      const pump = () => {
        while (written < TOTAL) {
          written += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        res.end();
      };
      res.on('close', () => (closed = true));
      pump();
    });
    const err = await failure(
      createTransport({ timeoutMs: 2000, maxBodyBytes: 1000 })(get(`${srv.origin}/big`)),
    );
    expect(err).toBeInstanceOf(CliError);
    expect(err).not.toBeInstanceOf(NetworkError);
    expect((err as Error).message).toBe(
      `the answer from 127.0.0.1:${srv.port} is larger than 1000 bytes; refusing to read it`,
    );
    await new Promise((r) => setTimeout(r, 50));
    expect(closed).toBe(true);
    expect(written).toBeLessThan(TOTAL); // socket buffers take a few MiB; the rest is never sent
  });

  it('refuses a declared Content-Length past the cap before reading the body', async () => {
    const srv = await startServer((_req, res) => {
      res.writeHead(200, { 'content-length': String(100 * 1024 * 1024) });
      res.write('{'); // and then nothing: reading on would hang until the timeout
    });
    const err = await failure(createTransport({ timeoutMs: 5000 })(get(`${srv.origin}/big`)));
    expect(err).toBeInstanceOf(CliError);
    expect((err as Error).message).toMatch(/larger than 64 MiB; refusing to read it/);
  });

  it('reads a body of exactly the cap, multi-byte characters across chunks intact', async () => {
    const text = '"é€😀"'.repeat(50);
    const bytes = Buffer.from(text);
    const srv = await startServer((_req, res) => {
      res.writeHead(200);
      for (let i = 0; i < bytes.length; i += 7) res.write(bytes.subarray(i, i + 7));
      res.end();
    });
    const res = await createTransport({ timeoutMs: 2000, maxBodyBytes: bytes.length })(
      get(`${srv.origin}/x`),
    );
    expect(res.body).toBe(text);
  });
});

describe('TLS to a port that speaks plain HTTP', () => {
  it('is one clear line saying so, not OpenSSL’s "wrong version number"', async () => {
    const srv = await startServer((_req, res) => res.end('plain'));
    const err = await failure(createTransport({ timeoutMs: 2000 })(get(`https://127.0.0.1:${srv.port}/x`)));
    expect(err).toBeInstanceOf(NetworkError);
    expect((err as NetworkError).message).toBe(`127.0.0.1:${srv.port} speaks plain HTTP, not HTTPS`);
    expect((err as NetworkError).message).not.toMatch(/wrong version number|SSL routines/);
    expect((err as NetworkError).hint).toMatch(/http:\/\//);
  });
});
