// The sandbox's webhook deliveries: every event type when it happens, the payload of service-api.md §6,
// signatures checked here with node:crypto directly (not with the module that made them), and retries.
import { createHmac } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { optionsFromEnv } from '../sandbox/env.js';
import { startSandbox, type Sandbox, type SandboxOptions } from '../sandbox/server.js';
import { ComplianceTracker, complianceScore } from '../sandbox/compliance.js';

interface Hit {
  at: number;
  headers: IncomingMessage['headers'];
  body: string;
}

interface Receiver {
  url: string;
  hits: Hit[];
  close(): Promise<void>;
}

/** A receiver answering each POST with the next status of `statuses` (the last one repeats). */
async function receiver(statuses: number[] = [204]): Promise<Receiver> {
  const hits: Hit[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      hits.push({ at: Date.now(), headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      const status = statuses[Math.min(hits.length - 1, statuses.length - 1)] ?? 204;
      res.writeHead(status).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    hits,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

const generous: Partial<SandboxOptions> = { rateLimit: 100_000, scanRateLimit: 100_000 };

async function api(sb: Sandbox, method: string, path: string, body?: unknown) {
  const token = await sb.issueAccessToken('owner@acme.test', 3600);
  const res = await fetch(`${sb.url}/api/v1${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      'x-tenant-slug': 'acme',
      'content-type': 'application/json',
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

async function until(ok: () => boolean, timeoutMs = 8000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!ok()) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 10));
  }
}

function hmac(secret: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(body, 'utf8').digest('hex')}`;
}

const events = (r: Receiver) => r.hits.map((h) => JSON.parse(h.body).event as string);

describe('sandbox webhook deliveries', () => {
  let sb: Sandbox;
  let rx: Receiver;
  beforeAll(async () => {
    // Threshold 100: a workspace's first completed scan always drops its score below it.
    sb = await startSandbox({ ...generous, scanStepMs: 20, complianceThreshold: 100, webhookRetryMs: 10 });
  });
  afterAll(() => sb.close());
  afterEach(async () => {
    sb.reset();
    await rx?.close();
  });

  it('sends all five event types when they happen, each signed with the webhook secret', async () => {
    rx = await receiver();
    const secret = 'whsec-all-events';
    const hook = await api(sb, 'POST', '/webhooks', {
      url: rx.url,
      events: [
        'scan.completed',
        'scan.failed',
        'finding.critical',
        'finding.high',
        'compliance.score_dropped',
      ],
      secret,
    });
    expect(hook.status).toBe(201);
    const ok = (await api(sb, 'POST', '/scans', { connection_alias: 'staging' })).body;
    await api(sb, 'POST', '/scans', { connection_alias: 'legacy-fail' });
    await until(() => events(rx).includes('scan.failed') && events(rx).includes('compliance.score_dropped'));
    await until(() => sb.deliveries.every((d) => d.outcome !== 'pending'));

    const seen = new Set(events(rx));
    expect([...seen].sort()).toEqual([
      'compliance.score_dropped',
      'finding.critical',
      'finding.high',
      'scan.completed',
      'scan.failed',
    ]);
    for (const hit of rx.hits) {
      expect(hit.headers['x-service-signature']).toBe(hmac(secret, hit.body));
      expect(hit.headers['content-type']).toBe('application/json');
      const payload = JSON.parse(hit.body);
      expect(Object.keys(payload).sort()).toEqual(['data', 'event', 'timestamp', 'workspace']);
      expect(payload.workspace).toBe('acme');
      expect(new Date(payload.timestamp).toISOString()).toBe(payload.timestamp);
    }

    // The findings events carry the new findings of that scan, one delivery per finding.
    const final = (await api(sb, 'GET', `/scans/${ok.scan_id}`)).body;
    const payloads = rx.hits.map((h) => JSON.parse(h.body));
    const criticals = payloads.filter((p) => p.event === 'finding.critical');
    expect(criticals).toHaveLength(final.critical_count);
    expect(criticals.every((p) => p.data.severity === 'critical' && p.data.scan_id === ok.scan_id)).toBe(
      true,
    );
    expect(payloads.filter((p) => p.event === 'finding.high')).toHaveLength(final.high_count);

    const drop = payloads.find((p) => p.event === 'compliance.score_dropped');
    expect(drop.data).toEqual({
      score: complianceScore(final.critical_count, final.high_count),
      previous_score: 100,
      threshold: 100,
      scan_id: ok.scan_id,
      connection_alias: 'staging',
    });
    const failed = payloads.find((p) => p.event === 'scan.failed');
    expect(failed.data).toMatchObject({ connection_alias: 'legacy-fail', status: 'failed' });
    expect(failed.data.error).toEqual(expect.any(String));
  });

  it('sends compliance.score_dropped only when the score crosses the threshold', async () => {
    rx = await receiver();
    await api(sb, 'POST', '/webhooks', {
      url: rx.url,
      events: ['compliance.score_dropped', 'scan.completed'],
      secret: 's',
    });
    await api(sb, 'POST', '/scans', { connection_alias: 'prod' });
    await until(() => events(rx).includes('scan.completed'));
    await api(sb, 'POST', '/scans', { connection_alias: 'dev' });
    await until(() => events(rx).filter((e) => e === 'scan.completed').length === 2);
    await until(() => sb.deliveries.every((d) => d.outcome !== 'pending'));
    // The first scan crossed from 100; the second starts below the threshold, so it is no new drop.
    expect(events(rx).filter((e) => e === 'compliance.score_dropped')).toHaveLength(1);
  });

  it('retries a failed delivery with the same bytes and signature, backing off, until a 2xx', async () => {
    rx = await receiver([500, 503, 204]);
    await api(sb, 'POST', '/webhooks', { url: rx.url, events: ['scan.completed'], secret: 'retry' });
    await api(sb, 'POST', '/scans', { connection_alias: 'prod' });
    await until(() => rx.hits.length >= 3);
    await until(() => sb.deliveries.every((d) => d.outcome !== 'pending'));
    expect(rx.hits).toHaveLength(3);
    expect(new Set(rx.hits.map((h) => h.body)).size).toBe(1);
    expect(new Set(rx.hits.map((h) => h.headers['x-service-signature'])).size).toBe(1);
    const [a, b, c] = rx.hits.map((h) => h.at) as [number, number, number];
    // Waits of 10 ms then 20 ms at least (lower bounds only: a busy machine may be slower, never faster).
    expect(b - a).toBeGreaterThanOrEqual(9);
    expect(c - b).toBeGreaterThanOrEqual(19);
    const d = sb.deliveries.find((x) => x.event === 'scan.completed');
    expect(d).toMatchObject({ outcome: 'delivered', attempts: 3, status: 204 });
  });

  it('gives up after the configured number of tries', async () => {
    rx = await receiver([500]);
    await api(sb, 'POST', '/webhooks', { url: rx.url, events: ['scan.completed'], secret: 'x' });
    await api(sb, 'POST', '/scans', { connection_alias: 'prod' });
    await until(() => sb.deliveries.some((d) => d.outcome === 'error'));
    expect(rx.hits).toHaveLength(5);
    expect(sb.deliveries[0]).toMatchObject({ outcome: 'error', attempts: 5, status: 500, error: 'HTTP 500' });
  });

  it('retries when the receiver cannot be reached, and never sends to a non-loopback host', async () => {
    rx = await receiver();
    const gone = rx.url;
    await rx.close();
    await api(sb, 'POST', '/webhooks', { url: gone, events: ['scan.completed'], secret: 'x' });
    await api(sb, 'POST', '/webhooks', {
      url: 'https://hooks.example.com/x',
      events: ['scan.completed'],
      secret: 'x',
    });
    await api(sb, 'POST', '/scans', { connection_alias: 'prod' });
    await until(() => sb.deliveries.length === 2 && sb.deliveries.every((d) => d.outcome !== 'pending'));
    const local = sb.deliveries.find((d) => d.url === gone);
    expect(local).toMatchObject({ outcome: 'error', attempts: 5 });
    expect(local?.status).toBeUndefined();
    expect(sb.deliveries.find((d) => d.url !== gone)).toMatchObject({ outcome: 'skipped', attempts: 0 });
  });
});

describe('ComplianceTracker', () => {
  it('reports a drop only on the crossing from at-or-above to below', () => {
    const t = new ComplianceTracker(70);
    expect(t.record('acme', 'prod', { critical: 0, high: 2 }, 1)).toBeUndefined(); // ~90
    expect(t.record('acme', 'prod', { critical: 1, high: 0 }, 2)).toBeUndefined(); // 70: not below
    expect(t.record('acme', 'prod', { critical: 1, high: 1 }, 3)).toEqual({ score: 66.5, previous: 70 });
    expect(t.record('acme', 'dev', { critical: 1, high: 0 }, 4)).toBeUndefined(); // 46.6, already below
    expect(t.record('acme', 'dev', { critical: 0, high: 0 }, 5)).toBeUndefined(); // 66.5
    expect(t.record('acme', 'prod', { critical: 0, high: 0 }, 6)).toBeUndefined(); // 100
    expect(t.record('acme', 'prod', { critical: 2, high: 0 }, 7)).toEqual({ score: 49, previous: 100 });
    // Per workspace, each starting at 100.
    expect(t.score('globex')).toBe(100);
    expect(t.record('globex', 'prod', { critical: 1, high: 1 }, 8)).toEqual({ score: 66.5, previous: 100 });
  });

  it('counts the latest scan of each connection: new critical or high findings lower it, fewer raise it', () => {
    const t = new ComplianceTracker(70, Date.UTC(2026, 0, 1));
    expect(t.json('acme')).toEqual({
      score: 100,
      threshold: 70,
      computed_at: '2026-01-01T00:00:00.000Z',
      critical_count: 0,
      high_count: 0,
    });
    t.record('acme', 'prod', { critical: 1, high: 2 }, Date.UTC(2026, 0, 2));
    t.record('acme', 'staging', { critical: 0, high: 3 }, Date.UTC(2026, 0, 3));
    expect(t.json('acme')).toEqual({
      score: 54.2,
      threshold: 70,
      computed_at: '2026-01-03T00:00:00.000Z',
      critical_count: 1,
      high_count: 5,
    });
    // Prod scanned again, its alias in another case: its share is replaced, not added.
    t.record('acme', 'PROD', { critical: 0, high: 1 }, Date.UTC(2026, 0, 4));
    expect(t.score('acme')).toBe(81.5);
  });

  it('turns critical and high counts into a 0–100 score that falls with each one', () => {
    expect(complianceScore(0, 0)).toBe(100);
    expect(complianceScore(1, 1)).toBe(66.5);
    expect(complianceScore(5, 4)).toBe(13.7);
    expect(complianceScore(40, 40)).toBe(0);
    for (let c = 0; c < 5; c++) expect(complianceScore(c + 1, 2)).toBeLessThan(complianceScore(c, 2));
  });
});

describe('GET /compliance', () => {
  it('is 100 before any scan, falls with a scan that finds critical or high findings, 404 when off', async () => {
    const sb = await startSandbox({ ...generous, scanStepMs: 10 });
    try {
      const before = await api(sb, 'GET', '/compliance');
      expect(before.status).toBe(200);
      expect(before.body).toMatchObject({ score: 100, threshold: 70, critical_count: 0, high_count: 0 });
      expect(new Date(before.body.computed_at).toISOString()).toBe(before.body.computed_at);
      const scan = (await api(sb, 'POST', '/scans', { connection_alias: 'prod' })).body;
      await new Promise((r) => setTimeout(r, 60));
      const final = (await api(sb, 'GET', `/scans/${scan.scan_id}`)).body;
      expect(final.status).toBe('completed');
      const after = (await api(sb, 'GET', '/compliance')).body;
      expect(after.score).toBe(complianceScore(final.critical_count, final.high_count));
      expect(after.score).toBeLessThan(100);
      expect(after).toMatchObject({ critical_count: final.critical_count, high_count: final.high_count });
    } finally {
      await sb.close();
    }
    const off = await startSandbox({ ...generous, complianceEndpoint: false });
    try {
      const r = await api(off, 'GET', '/compliance');
      expect(r.status).toBe(404);
    } finally {
      await off.close();
    }
  });
});

describe('webhook settings from the environment', () => {
  it('reads the attempts, the retry interval and the compliance threshold', () => {
    expect(
      optionsFromEnv({
        SANDBOX_WEBHOOK_ATTEMPTS: '3',
        SANDBOX_WEBHOOK_RETRY_MS: '50',
        SANDBOX_COMPLIANCE_THRESHOLD: '80',
      }),
    ).toMatchObject({ webhookAttempts: 3, webhookRetryMs: 50, complianceThreshold: 80 });
    expect(optionsFromEnv({ SANDBOX_COMPLIANCE: 'OFF' })).toMatchObject({ complianceEndpoint: false });
    expect(optionsFromEnv({})).not.toHaveProperty('complianceEndpoint');
  });

  it.each([
    ['SANDBOX_WEBHOOK_ATTEMPTS', '0'],
    ['SANDBOX_WEBHOOK_RETRY_MS', '-1'],
    ['SANDBOX_COMPLIANCE_THRESHOLD', '101'],
    ['SANDBOX_COMPLIANCE_THRESHOLD', 'high'],
    ['SANDBOX_COMPLIANCE', 'maybe'],
  ])('refuses %s=%s naming the variable', (name, value) => {
    expect(() => optionsFromEnv({ [name]: value })).toThrow(name);
  });
});
