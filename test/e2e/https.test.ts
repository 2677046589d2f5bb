import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { request as httpRequest, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startConnectProxy } from './connect-proxy.js';
import { World, errorLine } from './harness.js';

/**
 * TLS as a real service speaks it: a self-signed certificate (made with openssl) on an HTTPS front that
 * relays to the sandbox, and an HTTPS_PROXY that tunnels with CONNECT.
 */
describe('https and HTTPS_PROXY', () => {
  let w: World;
  let front: Server;
  let proxy: Server;
  let base: string;
  let cert: string;
  const tunnels: string[] = [];

  beforeAll(async () => {
    w = await World.start();
    cert = join(w.dir, 'cert.pem');
    const key = join(w.dir, 'key.pem');
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=localhost',
        '-addext',
        'subjectAltName=DNS:localhost,DNS:scanner.localhost,IP:127.0.0.1',
        '-keyout',
        key,
        '-out',
        cert,
      ],
      { stdio: 'ignore' },
    );
    const target = new URL(w.url);
    front = createHttpsServer({ key: readFileSync(key), cert: readFileSync(cert) }, (req, res) => {
      const up = httpRequest(
        { host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers },
        (upRes) => {
          res.writeHead(upRes.statusCode!, upRes.headers);
          upRes.pipe(res);
        },
      );
      req.pipe(up);
    });
    await new Promise<void>((r) => front.listen(0, '127.0.0.1', r));
    base = `https://localhost:${(front.address() as AddressInfo).port}`;
    proxy = await startConnectProxy(tunnels);
  });

  afterAll(async () => {
    for (const s of [front, proxy]) {
      s.closeAllConnections();
      await new Promise((r) => s.close(r));
    }
    await w.close();
  });

  it('logs in and works over https with a certificate the system is told to trust', async () => {
    const env = { NODE_EXTRA_CA_CERTS: cert };
    const c = w.cred();
    const login = await w.run(
      ['login', '--base-url', base, '-w', 'acme', '--email', c.email, '--password-stdin'],
      {
        env,
        input: `${c.password}\n`,
      },
    );
    expect(login.code, login.stderr).toBe(0);
    const list = await w.run(['connections', 'list', '--json'], { env });
    expect(list.code, list.stderr).toBe(0);
    expect(JSON.parse(list.stdout).length).toBeGreaterThan(0);
  });

  it('an untrusted certificate is one clear line and exit 1, never a stack trace', async () => {
    const res = await w.run(['connections', 'list']);
    expect(res.code).toBe(1);
    const line = errorLine(res);
    expect(line).toMatch(
      /^error: the TLS certificate of localhost:\d+ is not accepted: self-signed certificate/,
    );
    expect(line).toMatch(/NODE_EXTRA_CA_CERTS/);
  });

  it('HTTPS_PROXY tunnels https requests to other hosts with CONNECT', async () => {
    // Not loopback by name, so it goes through the proxy; the proxy takes it to 127.0.0.1.
    const remote = `https://scanner.localhost:${new URL(base).port}`;
    const env = {
      NODE_EXTRA_CA_CERTS: cert,
      HTTPS_PROXY: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
    };
    const c = w.cred();
    const login = await w.run(
      [
        'login',
        '--profile',
        'remote',
        '--base-url',
        remote,
        '-w',
        'acme',
        '--email',
        c.email,
        '--password-stdin',
      ],
      { env, input: `${c.password}\n` },
    );
    expect(login.code, login.stderr).toBe(0);
    const res = await w.run(['connections', 'list', '--json', '--profile', 'remote'], { env });
    expect(res.code, res.stderr).toBe(0);
    expect(tunnels).toContain(`scanner.localhost:${new URL(base).port}`);
  });

  it('never tunnels https to a loopback host through HTTPS_PROXY', async () => {
    tunnels.length = 0;
    const env = {
      NODE_EXTRA_CA_CERTS: cert,
      HTTPS_PROXY: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
    };
    const res = await w.run(['connections', 'list', '--json'], { env });
    expect(res.code, res.stderr).toBe(0);
    expect(tunnels).toEqual([]);
  });
});
