// The receiver behind `webhooks listen`, on loopback, driven by a raw node:http client so every header and
// byte is under the test's control. Signatures are made here with node:crypto directly.
import { createHmac } from 'node:crypto';
import { request, type IncomingHttpHeaders } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import {
  startReceiver,
  type ForwardResult,
  type Receiver,
  type ReceiverOptions,
  type Rejected,
  type Verified,
} from '../../src/commands/webhooks/receiver.js';

const SECRET = 'listen-secret';

function sig(body: string | Buffer, secret = SECRET): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/** One request; `body` undefined sends none. With `hold`, the request is never ended (chunked, partial). */
function send(
  url: string,
  o: {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string | Buffer;
    hold?: boolean;
  },
): Promise<Answer> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: u.hostname,
        port: u.port,
        method: o.method ?? 'POST',
        path: o.path ?? u.pathname,
        headers: o.headers,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString(),
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    if (o.hold) {
      req.write(o.body ?? '');
      return;
    }
    req.end(o.body);
  });
}

function signed(body: string | Buffer, extra: Record<string, string> = {}) {
  return {
    headers: { 'content-type': 'application/json', 'x-service-signature': sig(body), ...extra },
    body,
  };
}

const delivery = JSON.stringify({
  event: 'scan.completed',
  timestamp: '2026-11-23T00:00:00.000Z',
  workspace: 'acme',
  data: { scan_id: 'scn_1', connection_alias: 'prod', provider: 'aws', status: 'completed' },
});

let rx: Receiver | undefined;
let verified: Verified[];
let rejected: Rejected[];

async function start(extra: Partial<ReceiverOptions> = {}): Promise<Receiver> {
  verified = [];
  rejected = [];
  rx = await startReceiver({
    host: '127.0.0.1',
    port: 0,
    path: '/hooks',
    secret: SECRET,
    onVerified: (v) => verified.push(v),
    onRejected: (r) => rejected.push(r),
    ...extra,
  });
  return rx;
}

afterEach(async () => {
  await rx?.close(100);
  rx = undefined;
});

describe('webhook receiver', () => {
  it('answers 200 to a correctly signed delivery and hands over the parsed delivery and the raw bytes', async () => {
    const r = await start();
    expect(r.url).toBe(`http://127.0.0.1:${r.port}/hooks`);
    const res = await send(r.url, signed(delivery));
    expect(res.status).toBe(200);
    expect(verified).toHaveLength(1);
    expect(verified[0]?.delivery).toEqual(JSON.parse(delivery));
    expect(verified[0]?.raw.toString()).toBe(delivery);
    expect(rejected).toEqual([]);
  });

  it('answers 401 to a missing, malformed, wrong-secret or tampered signature, and hands nothing over', async () => {
    const r = await start();
    const cases: Record<string, string>[] = [
      {},
      { 'x-service-signature': 'sha256=nope' },
      { 'x-service-signature': sig(delivery).toUpperCase() },
      { 'x-service-signature': sig(delivery, 'another-secret') },
      { 'x-service-signature': sig(`${delivery} `) },
    ];
    for (const headers of cases) {
      const res = await send(r.url, {
        headers: { 'content-type': 'application/json', ...headers },
        body: delivery,
      });
      expect(res.status).toBe(401);
    }
    expect(verified).toEqual([]);
    expect(rejected.map((x) => x.status)).toEqual([401, 401, 401, 401, 401]);
    expect(rejected[0]?.reason).toMatch(/no signature/);
    expect(rejected[3]?.reason).toMatch(/does not match/);
  });

  it('checks the signature before the body: an unsigned non-JSON body is 401, a signed one 400', async () => {
    const r = await start();
    expect((await send(r.url, { body: 'not json' })).status).toBe(401);
    expect((await send(r.url, signed('not json'))).status).toBe(400);
    expect((await send(r.url, signed('[1,2]'))).status).toBe(400);
    expect((await send(r.url, signed(''))).status).toBe(400);
    expect(verified).toEqual([]);
  });

  it('answers 404 for another path and 405 (Allow: POST) for another method', async () => {
    const r = await start();
    expect((await send(r.url, { ...signed(delivery), path: '/other' })).status).toBe(404);
    expect((await send(r.url, { ...signed(delivery), path: '/' })).status).toBe(404);
    const get = await send(r.url, { method: 'GET' });
    expect(get.status).toBe(405);
    expect(get.headers.allow).toBe('POST');
    // The query string is not part of the path.
    expect((await send(r.url, { ...signed(delivery), path: '/hooks?x=1' })).status).toBe(200);
    expect(verified).toHaveLength(1);
  });

  it('answers 413 to a body declared larger than the limit, without reading it', async () => {
    const r = await start({ maxBytes: 1024 });
    // 4096 bytes announced, 100 sent, the rest never: only a receiver that answers from the header can.
    const res = await send(r.url, {
      body: Buffer.alloc(100, 'a'),
      hold: true,
      headers: { 'content-length': '4096', 'x-service-signature': sig('x') },
    });
    expect(res.status).toBe(413);
    expect(verified).toEqual([]);
    expect(rejected.map((x) => x.status)).toEqual([413]);
  });

  it('answers 413 as soon as a streamed body passes the limit, without waiting for the rest', async () => {
    const r = await start();
    // Chunked, 1 MiB + 1 byte written, and the request never ended: only a receiver that stops reading at
    // the limit can answer.
    const res = await send(r.url, {
      headers: { 'content-type': 'application/json', 'x-service-signature': sig('x') },
      body: Buffer.alloc(1024 * 1024 + 1, 'a'),
      hold: true,
    });
    expect(res.status).toBe(413);
    expect(verified).toEqual([]);
  });

  it('accepts a body of exactly the limit', async () => {
    const r = await start({ maxBytes: 2048 });
    const padded = JSON.stringify({ event: 'scan.completed', data: { pad: '' } });
    const body = padded.replace('"pad":""', `"pad":"${'x'.repeat(2048 - padded.length)}"`);
    expect(Buffer.byteLength(body)).toBe(2048);
    expect((await send(r.url, signed(body))).status).toBe(200);
  });

  it('forwards the untouched bytes and signature header and answers with the target’s status and body', async () => {
    const seen: { raw: Buffer; headers: { signature: string; contentType: string } }[] = [];
    const r = await start({
      forward: async (raw, headers): Promise<ForwardResult> => {
        seen.push({ raw, headers });
        return { status: 202, body: 'queued', contentType: 'text/plain' };
      },
    });
    // Not UTF-8-clean on purpose: a decode and re-encode would change these bytes.
    const raw = Buffer.concat([
      Buffer.from('{"event":"scan.completed","x":"'),
      Buffer.from([0xc3, 0x28]),
      Buffer.from('"}'),
    ]);
    const res = await send(r.url, signed(raw, { 'content-type': 'application/json; charset=utf-8' }));
    expect(res.status).toBe(202);
    expect(res.body).toBe('queued');
    expect(seen).toHaveLength(1);
    expect(seen[0]?.raw.equals(raw)).toBe(true);
    expect(seen[0]?.headers).toEqual({ signature: sig(raw), contentType: 'application/json; charset=utf-8' });
    expect(verified[0]?.forwarded).toEqual({ status: 202, body: 'queued', contentType: 'text/plain' });
  });

  it('answers 502 when the forward target cannot be reached, and never forwards what it rejects', async () => {
    let calls = 0;
    const r = await start({
      forward: async () => {
        calls++;
        throw new Error('connection refused');
      },
    });
    expect((await send(r.url, { body: delivery })).status).toBe(401);
    expect(calls).toBe(0);
    expect((await send(r.url, signed(delivery))).status).toBe(502);
    expect(calls).toBe(1);
    expect(verified[0]?.forwarded).toEqual({ error: 'connection refused' });
  });

  it('on close, finishes the delivery in flight and then stops accepting', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let entered!: () => void;
    const inside = new Promise<void>((resolve) => (entered = resolve));
    const r = await start({
      forward: async () => {
        entered();
        await gate;
        return { status: 200, body: 'ok' };
      },
    });
    const pending = send(r.url, signed(delivery));
    await inside;
    let closed = false;
    const closing = r.close().then(() => (closed = true));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(closed).toBe(false);
    release();
    expect((await pending).status).toBe(200);
    await closing;
    expect(verified).toHaveLength(1);
    await expect(send(r.url, signed(delivery))).rejects.toThrow(/ECONNREFUSED/);
  });

  it('fails to start on a port in use, with the system’s code', async () => {
    const first = await start();
    const second = startReceiver({
      host: '127.0.0.1',
      port: first.port,
      path: '/',
      secret: SECRET,
      onVerified: () => {},
      onRejected: () => {},
    });
    await expect(second).rejects.toMatchObject({ code: 'EADDRINUSE' });
  });
});

describe('webhook receiver: the developer’s loop', () => {
  const at = (event: string, timestamp = '2026-11-23T00:00:00.000Z', extra = '') =>
    `{"event":"${event}","timestamp":"${timestamp}","workspace":"acme","data":{}${extra}}`;

  it('--events: another verified event is answered 200 and neither handed over, saved nor forwarded', async () => {
    const saves: string[] = [];
    let forwards = 0;
    const r = await start({
      events: new Set(['finding.high']),
      save: (x) => (saves.push(x.raw.toString()), 'f'),
      forward: async () => (forwards++, { status: 204 }),
    });
    const other = await send(r.url, signed(at('scan.completed')));
    expect(other.status).toBe(200);
    expect(JSON.parse(other.body).message).toBe('ignored');
    expect((await send(r.url, signed('{"no":"event"}'))).status).toBe(200);
    expect(verified).toEqual([]);
    expect(saves).toEqual([]);
    expect(forwards).toBe(0);
    // A forged delivery of an unselected event is still refused: the filter comes after the signature.
    expect((await send(r.url, { body: at('scan.completed') })).status).toBe(401);
    expect((await send(r.url, signed(at('finding.high')))).status).toBe(204);
    expect(verified.map((v) => v.delivery.event)).toEqual(['finding.high']);
    expect(saves).toHaveLength(1);
  });

  it('--tolerance: a timestamp too far from the clock is answered 400, not saved, not forwarded', async () => {
    let forwards = 0;
    const saves: string[] = [];
    const r = await start({
      tolerance: { ms: 30_000 },
      now: () => Date.parse('2026-11-23T00:10:00.000Z'),
      save: () => (saves.push('x'), 'f'),
      forward: async () => (forwards++, { status: 200 }),
    });
    for (const t of ['2026-11-23T00:09:29.000Z', '2026-11-23T00:10:31.000Z', 'soon']) {
      expect((await send(r.url, signed(at('scan.completed', t)))).status).toBe(400);
    }
    expect(rejected.map((x) => x.reason)).toEqual([
      expect.stringMatching(/31 s old, outside --tolerance/),
      expect.stringMatching(/31 s in the future/),
      expect.stringMatching(/no ISO 8601 timestamp/),
    ]);
    expect(forwards + saves.length + verified.length).toBe(0);
    expect((await send(r.url, signed(at('scan.completed', '2026-11-23T00:09:31.000Z')))).status).toBe(200);
    expect(forwards).toBe(1);
  });

  it('a body already received is answered 200 as a duplicate: not saved again, not forwarded', async () => {
    let forwards = 0;
    const saves: string[] = [];
    const r = await start({
      save: (x) => (saves.push(x.raw.toString()), `/saved/${saves.length}`),
      forward: async () => (forwards++, { status: 202 }),
    });
    const body = at('scan.completed');
    expect((await send(r.url, signed(body))).status).toBe(202);
    const again = await send(r.url, signed(body));
    expect(again.status).toBe(200);
    expect(JSON.parse(again.body).message).toBe('duplicate');
    // One byte more is another body.
    expect((await send(r.url, signed(`${body} `))).status).toBe(202);
    expect(forwards).toBe(2);
    expect(saves).toEqual([body, `${body} `]);
    expect(verified.map((v) => [v.duplicate ?? false, v.saved])).toEqual([
      [false, '/saved/1'],
      [true, undefined],
      [false, '/saved/2'],
    ]);
  });

  it('--forward-duplicates relays a duplicate again (and answers with the target’s status), still not saving it', async () => {
    let forwards = 0;
    let saves = 0;
    const r = await start({
      forwardDuplicates: true,
      save: () => (saves++, 'f'),
      forward: async () => (forwards++, { status: forwards === 1 ? 200 : 409 }),
    });
    expect((await send(r.url, signed(delivery))).status).toBe(200);
    expect((await send(r.url, signed(delivery))).status).toBe(409);
    expect(forwards).toBe(2);
    expect(saves).toBe(1);
    expect(verified[1]).toMatchObject({ duplicate: true, forwarded: { status: 409 } });
  });

  it('a delivery not taken (save failed: 500; target failed: 5xx/502) is not a duplicate when the service retries it', async () => {
    let failSave = true;
    let target = 503;
    const saves: string[] = [];
    const r = await start({
      save: (x) => {
        if (failSave) throw new Error('cannot write /x/y.json: no space left on the device');
        saves.push(x.raw.toString());
        return '/x/y.json';
      },
      forward: async () => ({ status: target }),
    });
    const first = await send(r.url, signed(delivery));
    expect(first.status).toBe(500);
    expect(rejected[0]).toMatchObject({
      status: 500,
      reason: expect.stringMatching(/^not saved: .*no space left/),
    });
    expect(verified).toEqual([]);
    failSave = false;
    expect((await send(r.url, signed(delivery))).status).toBe(503);
    expect(saves).toHaveLength(1);
    target = 200;
    expect((await send(r.url, signed(delivery))).status).toBe(200);
    // Saved once although handled twice; the third is the first one taken, so the fourth is the duplicate.
    expect(saves).toHaveLength(1);
    expect((await send(r.url, signed(delivery))).status).toBe(200);
    expect(verified.map((v) => v.duplicate ?? false)).toEqual([false, false, true]);
  });

  it('remembers bodies up to seenLimit only', async () => {
    const r = await start({ seenLimit: 2 });
    const bodies = ['a', 'b', 'c'].map((x) => at(`e.${x}`));
    for (const b of bodies) await send(r.url, signed(b));
    expect(JSON.parse((await send(r.url, signed(bodies[0]!))).body).message).toBe('verified');
    expect(JSON.parse((await send(r.url, signed(bodies[2]!))).body).message).toBe('duplicate');
  });
});
