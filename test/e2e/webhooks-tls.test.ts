// Forwarding and triggering go through the same transport as the service's requests: TLS trust from
// NODE_EXTRA_CA_CERTS, HTTPS_PROXY for hosts that are not loopback. Everything here lives on 127.0.0.1.
import { execFileSync } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { IncomingHttpHeaders, Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startConnectProxy } from './connect-proxy.js';
import { World, errorLine } from './harness.js';

const SECRET = 'tls-webhook-secret';

describe('webhooks over https and HTTPS_PROXY', () => {
  let w: World;
  let receiver: Server;
  let proxy: Server;
  let port: number;
  let cert: string;
  const hits: { headers: IncomingHttpHeaders; body: Buffer }[] = [];
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
        'subjectAltName=DNS:localhost,DNS:hooks.localhost,IP:127.0.0.1',
        '-keyout',
        key,
        '-out',
        cert,
      ],
      { stdio: 'ignore' },
    );
    receiver = createHttpsServer({ key: readFileSync(key), cert: readFileSync(cert) }, (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks);
        hits.push({ headers: req.headers, body });
        const expected = `sha256=${createHmac('sha256', SECRET).update(body).digest('hex')}`;
        res.writeHead(req.headers['x-service-signature'] === expected ? 204 : 401).end();
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    port = (receiver.address() as AddressInfo).port;
    proxy = await startConnectProxy(tunnels);
  });

  afterAll(async () => {
    for (const s of [receiver, proxy]) {
      s.closeAllConnections();
      await new Promise((r) => s.close(r));
    }
    await w.close();
  });

  it('trigger reaches an https receiver whose CA is trusted through NODE_EXTRA_CA_CERTS', async () => {
    hits.length = 0;
    const res = await w.run(
      ['webhooks', 'trigger', 'finding.critical', '--url', `https://localhost:${port}/h`],
      {
        env: { CSSCTL_WEBHOOK_SECRET: SECRET, NODE_EXTRA_CA_CERTS: cert },
      },
    );
    expect(res.code, res.stderr).toBe(0);
    expect(hits).toHaveLength(1);
    expect(JSON.parse(hits[0]!.body.toString()).event).toBe('finding.critical');
  });

  it('an untrusted certificate is one clear line and exit 1', async () => {
    const res = await w.run(
      ['webhooks', 'trigger', 'scan.completed', '--url', `https://localhost:${port}/h`],
      {
        env: { CSSCTL_WEBHOOK_SECRET: SECRET },
      },
    );
    expect(res.code).toBe(1);
    expect(errorLine(res)).toMatch(
      /the TLS certificate of localhost:\d+ is not accepted.*NODE_EXTRA_CA_CERTS/,
    );
  });

  it('trigger goes through HTTPS_PROXY to a host that is not loopback', async () => {
    hits.length = 0;
    tunnels.length = 0;
    const res = await w.run(
      ['webhooks', 'trigger', 'scan.failed', '--url', `https://hooks.localhost:${port}/h`, '--verbose'],
      {
        env: {
          CSSCTL_WEBHOOK_SECRET: SECRET,
          NODE_EXTRA_CA_CERTS: cert,
          HTTPS_PROXY: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
        },
      },
    );
    expect(res.code, res.stderr).toBe(0);
    expect(tunnels).toEqual([`hooks.localhost:${port}`]);
    expect(hits).toHaveLength(1);
    expect(res.stderr).toMatch(/\* POST https:\/\/hooks\.localhost:\d+\/h -> 204/);
    expect(res.stderr).not.toContain(SECRET);
  });
});
