// The network probes of `cssctl doctor`, over loopback: each one answers, fails with Node's error code, ends at
// its bound, or stops at once when the command is interrupted.
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { networkProbes, ProbeError } from '../../src/commands/doctor/probes.js';
import { InterruptedError } from '../../src/core/errors.js';

let silent: Server;
let port: number;
const sockets: Socket[] = [];

beforeAll(async () => {
  // Accepts connections and never says a word: a TLS handshake with it never ends.
  silent = createServer((s) => {
    sockets.push(s);
    s.on('error', () => undefined);
  });
  await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
  port = (silent.address() as AddressInfo).port;
});
afterAll(() => {
  for (const s of sockets) s.destroy();
  silent.close();
});

async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const p = (s.address() as AddressInfo).port;
  await new Promise((r) => s.close(r));
  return p;
}

describe('networkProbes', () => {
  it('resolve: an address is itself (brackets dropped); localhost resolves to a loopback address', async () => {
    expect(await networkProbes.resolve('127.0.0.1', 1000)).toStrictEqual(['127.0.0.1']);
    expect(await networkProbes.resolve('[::1]', 1000)).toStrictEqual(['::1']);
    const addresses = await networkProbes.resolve('localhost', 5000);
    expect(addresses.length).toBeGreaterThan(0);
    for (const a of addresses) expect(a).toMatch(/^(127\.|::1$)/);
  });

  it('connect: a listener answers; a closed port is ECONNREFUSED', async () => {
    await expect(networkProbes.connect('127.0.0.1', port, 2000)).resolves.toBeUndefined();
    const err = await networkProbes.connect('127.0.0.1', await closedPort(), 2000).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProbeError);
    expect((err as ProbeError).code).toBe('ECONNREFUSED');
  });

  it('tls: a peer that never answers ends at the bound (ETIMEDOUT)', async () => {
    const started = Date.now();
    const err = await networkProbes.tls('127.0.0.1', port, 300).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProbeError);
    expect((err as ProbeError).code).toBe('ETIMEDOUT');
    expect((err as Error).message).toBe('no TLS handshake within 0.3 s');
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('an abort (Ctrl-C) stops a probe at once with InterruptedError; an aborted signal starts none', async () => {
    const ctl = new AbortController();
    const started = Date.now();
    const pending = networkProbes.tls('127.0.0.1', port, 60_000, ctl.signal).catch((e: unknown) => e);
    setTimeout(() => ctl.abort(), 50);
    expect(await pending).toBeInstanceOf(InterruptedError);
    expect(Date.now() - started).toBeLessThan(5000);
    await expect(networkProbes.connect('127.0.0.1', port, 1000, ctl.signal)).rejects.toBeInstanceOf(
      InterruptedError,
    );
  });
});
