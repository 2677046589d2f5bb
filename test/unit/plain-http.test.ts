// The plain sender (ctx.http()): the real transport to a loopback server, with nothing of the service added.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NetworkError, UsageError } from '../../src/core/errors.js';
import { createPlainSender } from '../../src/core/http/plain.js';
import { FakeClock } from '../helpers/fake-clock.js';

interface Seen {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

let server: Server;
let origin: string;
const seen: Seen[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      seen.push({
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks),
      });
      if (req.url === '/moved') res.writeHead(302, { location: '/elsewhere' }).end();
      else if (req.url === '/teapot')
        res.writeHead(418, { 'content-type': 'text/plain' }).end('short and stout');
      else res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

function sender() {
  const lines: string[] = [];
  const send = createPlainSender({ timeoutMs: 5000, log: (l) => lines.push(l), clock: new FakeClock() });
  return { send, lines };
}

describe('plain HTTP sender', () => {
  it('sends the exact bytes and the given headers, and no token, tenant or idempotency key', async () => {
    const { send } = sender();
    const raw = Buffer.from([0x7b, 0xc3, 0x28, 0xff, 0x7d]);
    seen.length = 0;
    const res = await send({
      method: 'post',
      url: `${origin}/hook`,
      headers: { 'Content-Type': 'application/json', 'X-Service-Signature': 'sha256=abc' },
      body: raw,
    });
    expect(res.status).toBe(200);
    expect(res.body).toBe('{"ok":true}');
    const [got] = seen;
    expect(got?.method).toBe('POST');
    expect(got?.body.equals(raw)).toBe(true);
    expect(got?.headers['x-service-signature']).toBe('sha256=abc');
    expect(got?.headers['content-type']).toBe('application/json');
    expect(got?.headers['user-agent']).toMatch(/^cssctl\//);
    for (const h of ['authorization', 'x-tenant-slug', 'idempotency-key'])
      expect(got?.headers[h]).toBeUndefined();
  });

  it('reports a redirect or an error status as the answer, without following or retrying', async () => {
    const { send } = sender();
    seen.length = 0;
    expect((await send({ method: 'POST', url: `${origin}/moved`, body: '{}' })).status).toBe(302);
    const teapot = await send({ method: 'POST', url: `${origin}/teapot`, body: '{}' });
    expect(teapot).toMatchObject({ status: 418, body: 'short and stout' });
    expect(seen.map((s) => s.url)).toEqual(['/moved', '/teapot']);
  });

  it('logs one line per exchange with the URL redacted, never a header value', async () => {
    const { send, lines } = sender();
    await send({
      method: 'POST',
      url: `http://user:pw@127.0.0.1:${new URL(origin).port}/hook?token=t0ps3cret`,
      headers: { 'x-service-signature': 'sha256=feedface' },
      body: 'secret body',
    });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^\* POST http:\/\/127\.0\.0\.1:\d+\/hook\?token=REDACTED -> 200 /);
    for (const s of ['feedface', 't0ps3cret', 'pw', 'secret body']) expect(lines[0]).not.toContain(s);
  });

  it('refuses a URL that is not http(s), before sending anything', async () => {
    const { send, lines } = sender();
    await expect(send({ url: 'ftp://127.0.0.1/x' })).rejects.toBeInstanceOf(UsageError);
    await expect(send({ url: 'not a url' })).rejects.toBeInstanceOf(UsageError);
    expect(lines).toEqual([]);
  });

  it('names the receiver, not the service, when nothing listens', async () => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const port = (probe.address() as AddressInfo).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const { send } = sender();
    const err = await send({ method: 'POST', url: `http://127.0.0.1:${port}/`, body: '' }).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(NetworkError);
    expect((err as NetworkError).hint).toMatch(/receiver/);
    expect((err as NetworkError).hint).not.toMatch(/base-url/);
  });
});
