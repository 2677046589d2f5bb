// The webhook verbs' input rules and their event lines.
import { describe, expect, it } from 'vitest';
import { EVENT_TYPES } from '../../src/api/webhooks.js';
import { parseEvent, parseEvents, webhookUrl } from '../../src/commands/webhooks/common.js';
import { forwardsToItself, parsePath, parsePort } from '../../src/commands/webhooks/listen.js';
import { sampleDelivery } from '../../src/commands/webhooks/samples.js';
import { deliveryLine, summarize } from '../../src/commands/webhooks/summary.js';
import { usageError } from '../helpers/assert.js';

describe('events', () => {
  it('takes the five event types, case-insensitive, repeats dropped, or all', () => {
    expect(parseEvents('scan.completed, FINDING.critical,scan.completed')).toEqual([
      'scan.completed',
      'finding.critical',
    ]);
    expect(parseEvents('all')).toEqual([...EVENT_TYPES]);
    expect(parseEvents('ALL')).toHaveLength(5);
  });

  it('refuses anything else, naming the valid values', () => {
    expect(usageError(() => parseEvents('scan.exploded')).message).toMatch(
      /unknown event "scan.exploded": expected scan.completed, scan.failed, finding.critical, finding.high, compliance.score_dropped or all/,
    );
    expect(usageError(() => parseEvents(' , ')).message).toMatch(/empty/);
    expect(usageError(() => parseEvents('all,scan.failed')).message).toMatch(/all/);
    expect(usageError(() => parseEvent('finding.medium')).message).toMatch(/unknown event/);
    expect(parseEvent('Compliance.Score_Dropped')).toBe('compliance.score_dropped');
  });
});

describe('webhook URLs', () => {
  it('takes https anywhere, and http for loopback hosts only (telling the caller)', () => {
    const plain: string[] = [];
    const note = (u: URL) => plain.push(u.host);
    expect(webhookUrl('https://hooks.example.com/x', '--url', note)).toBe('https://hooks.example.com/x');
    for (const u of [
      'http://127.0.0.1:9/x',
      'http://localhost:9/x',
      'http://[::1]:9/x',
      'http://127.9.9.9/',
    ]) {
      expect(webhookUrl(u, '--url', note)).toBe(new URL(u).toString());
    }
    expect(plain).toEqual(['127.0.0.1:9', 'localhost:9', '[::1]:9', '127.9.9.9']);
  });

  it.each([
    ['http://hooks.example.com/x', /only for loopback/],
    ['http://[fe80::1]/x', /only for loopback/],
    ['http://10.0.0.1/x', /only for loopback/],
    ['ftp://127.0.0.1/x', /https/],
    ['nope', /is not a URL/],
    ['https://user:pw@hooks.example.com/', /credentials/],
  ])('refuses %s', (url, why) => {
    const err = usageError(() => webhookUrl(url, '--forward-to'));
    expect(err.message).toMatch(why);
    expect(err.message).toMatch(/^--forward-to/);
    expect(err.message).not.toContain('pw@');
  });
});

describe('listen options', () => {
  it('takes ports 0–65535 and paths that start with /', () => {
    expect(parsePort('8088')).toBe(8088);
    expect(parsePort('0')).toBe(0);
    for (const p of ['65536', '-1', '80a', '', '1e3']) usageError(() => parsePort(p));
    expect(parsePath('/hooks/cssctl')).toBe('/hooks/cssctl');
    for (const p of ['hooks', '/a b', '/x?y=1', '']) usageError(() => parsePath(p));
  });
});

describe('event lines', () => {
  const now = new Date('2026-11-23T01:02:03.000Z');

  it('summarises each sample event in one line: time, event, workspace, summary', () => {
    const line = (e: (typeof EVENT_TYPES)[number]) => deliveryLine(sampleDelivery(e, 'acme', now));
    expect(line('scan.completed')).toBe(
      '2026-11-23T01:02:03.000Z  scan.completed            acme  scan scn_sample0001 of prod (aws): completed, 23 findings, 2 critical, risk 5.4',
    );
    expect(line('scan.failed')).toMatch(
      /scan\.failed {15}acme {2}scan scn_sample0001 of prod \(aws\): failed, .* — the provider/,
    );
    expect(line('finding.critical')).toMatch(
      /finding\.critical {10}acme {2}critical fnd_sample_critical: S3 bucket/,
    );
    // Aligned: the workspace starts in the same column whatever the event (issue 28 #21).
    expect(new Set(EVENT_TYPES.map((e) => line(e).indexOf('  acme  '))).size).toBe(1);
    expect(line('finding.high')).toMatch(/ {2}high fnd_sample_high: /);
    expect(line('compliance.score_dropped')).toMatch(
      /score 46 \(was 100\), below 70 after scan scn_sample0001$/,
    );
  });

  it('adds the forward result, and keeps text from the network off the terminal', () => {
    const d = {
      event: 'scan.completed\u001b[31m',
      timestamp: 'T',
      workspace: 'ac\u202eme',
      data: { scan_id: 'x\ny', status: 'completed' },
    };
    const line = deliveryLine(d, { status: 204 });
    // eslint-disable-next-line no-control-regex
    expect(line).not.toMatch(/[\u0000-\u001f\u202e]/);
    expect(line.endsWith('  -> 204')).toBe(true);
    expect(deliveryLine(d, { error: 'refused' }).endsWith('  -> 502 (refused)')).toBe(true);
  });

  it('lists the scalar fields of an unknown shape, and cuts a long summary', () => {
    expect(summarize('other.event', { a: 1, b: 'two', c: { nested: true } })).toBe('a=1 b=two');
    const long = deliveryLine({ event: 'x', timestamp: 't', workspace: 'w', data: { a: 'y'.repeat(500) } });
    expect(long.length).toBeLessThan(200);
    expect(long.endsWith('…')).toBe(true);
  });
});

describe('webhooks listen --forward-to: never this receiver itself', () => {
  it('its port, its path and a host it answers on is itself; anything else is another receiver', () => {
    expect(forwardsToItself('http://127.0.0.1:8088/', '127.0.0.1', 8088, '/')).toBe(true);
    expect(forwardsToItself('http://localhost:8088', '127.0.0.1', 8088, '/')).toBe(true);
    expect(forwardsToItself('http://[::1]:8088/hook/', '::1', 8088, '/hook')).toBe(true);
    expect(forwardsToItself('http://127.0.0.1:8088/hook', '0.0.0.0', 8088, '/hook')).toBe(true);
    expect(forwardsToItself('http://127.0.0.1:3000/', '127.0.0.1', 8088, '/')).toBe(false);
    expect(forwardsToItself('http://127.0.0.1:8088/app', '127.0.0.1', 8088, '/')).toBe(false);
    expect(forwardsToItself('https://127.0.0.1:8088/', '127.0.0.1', 8088, '/')).toBe(false);
    expect(forwardsToItself('http://127.0.0.1:8088/', '127.0.0.1', 0, '/')).toBe(false);
    expect(forwardsToItself('http://127.0.0.1:8088/', '192.168.1.5', 8088, '/')).toBe(false);
  });
});
