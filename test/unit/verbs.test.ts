// The findings and scan-report verbs, run with a fake context and a scripted service (test/helpers/verb.ts).
import { describe, expect, it } from 'vitest';
import { list } from '../../src/commands/findings/list.js';
import { wait } from '../../src/commands/scans/wait.js';
import { findingOf, json, scanOf, verbWorld } from '../helpers/verb.js';

const f = findingOf;

const scan = scanOf;

describe('findings list (verb)', () => {
  it('one page as json: the service is asked once, the findings printed as they came', async () => {
    const w = verbWorld(
      [json({ total: 2, findings: [f('a', 'high'), f('b', 'low')], limit: 50, offset: 0 })],
      {
        output: 'json',
      },
    );
    expect(await w.run(list, {})).toBe(0);
    expect(w.requests()).toStrictEqual(['GET /findings']);
    expect((JSON.parse(w.stdout.text) as { id: string }[]).map((x) => x.id)).toStrictEqual(['a', 'b']);
  });

  it('--scan with an empty answer asks GET /scans/{id}: a scan that does not exist is exit 5', async () => {
    const w = verbWorld(
      [
        json({ total: 0, findings: [], limit: 50, offset: 0 }),
        json({ detail: 'scan "scn_nope" not found', code: 'not_found' }, 404),
      ],
      { output: 'json' },
    );
    expect(await w.run(list, { scan: 'scn_nope' })).toBe(5);
    expect(w.requests()).toStrictEqual(['GET /findings?scan_id=scn_nope', 'GET /scans/scn_nope']);
    expect(w.stdout.text).toBe('');
  });

  it('a 404 whose detail does not name the scan is reported naming the scan the user typed', async () => {
    const w = verbWorld([
      json({ total: 0, findings: [] }),
      json({ detail: 'scan not found', code: 'not_found' }, 404),
    ]);
    expect(await w.run(list, { scan: 'scan-nope' })).toBe(5);
    expect(w.stderr.text).toBe('error: scan "scan-nope" not found\n');
    // Any other detail is kept, after the id; a detail that names it already is left as it is.
    const other = verbWorld([json({ detail: 'not accessible in this workspace' }, 404)]);
    expect(await other.run(wait, {}, ['scn_x'])).toBe(5);
    expect(other.stderr.text).toContain('error: scan "scn_x": not accessible in this workspace');
    const named = verbWorld([json({ total: 0, findings: [] }), json({ detail: 'no scan scn_y here' }, 404)]);
    expect(await named.run(list, { scan: 'scn_y' })).toBe(5);
    expect(named.stderr.text).toBe('error: no scan scn_y here\n');
  });

  it('--scan with an empty answer for a scan that exists: an empty list', async () => {
    const w = verbWorld([json({ total: 0, findings: [] }), json(scan({ total_findings: 0 }))], {
      output: 'json',
    });
    expect(await w.run(list, { scan: 'scn_1' })).toBe(0);
    expect(w.stdout.text).toBe('[]\n');
  });

  it.each(['json', 'ndjson', 'csv', 'table', 'sarif', 'junit', 'github'])(
    'a null item is left out of -o %s, with a warning',
    async (output) => {
      const w = verbWorld([json({ total: 3, findings: [f('a', 'high'), null, f('b', 'low')] })], { output });
      expect(await w.run(list, {})).toBe(0);
      expect(w.stderr.text).toContain(
        "left out 1 item of the service's answer that is not an object (such as null)",
      );
      expect(w.stdout.text).not.toMatch(/null|^,+$/m);
      expect(w.stdout.text).toContain('arn:aws:s3:::b');
      if (output === 'csv') expect(w.stdout.text.trim().split('\n')).toHaveLength(3);
    },
  );
});

describe('scans wait (verb)', () => {
  it('an impossible critical_count is not trusted: the gate counts again and exit 10 names the counts', async () => {
    const w = verbWorld(
      [
        json(scan({ critical_count: -1 })),
        json({ total: 2, findings: [f('c1', 'critical')], limit: 1 }),
        json({ total: 4, findings: [f('h1', 'high')], limit: 1 }),
      ],
      { argv: ['scans', 'wait', 'scn_1', '--fail-on', 'high'] },
    );
    expect(await w.run(wait, { failOn: 'high' }, ['scn_1'])).toBe(10);
    expect(w.requests()).toStrictEqual([
      'GET /scans/scn_1',
      'GET /findings?limit=1&severity=critical&scan_id=scn_1',
      'GET /findings?limit=1&severity=high&scan_id=scn_1',
    ]);
    expect(w.stderr.text).not.toContain('-1');
    expect(w.stderr.text).toContain(
      'Scan scn_1 completed: 6 findings (2 critical, 4 high, 0 medium, 0 low, 0 info)',
    );
    expect(w.stderr.text.trim().split('\n').at(-1)).toBe(
      'error: scan scn_1 has 6 findings at or above high: 2 critical, 4 high (--fail-on high)',
    );
  });

  it('an answer about another scan is exit 1 naming it, never gated on', async () => {
    const w = verbWorld([json(scan({ scan_id: 'scn_OTHER' }))]);
    expect(await w.run(wait, { failOn: 'critical' }, ['scn_1'])).toBe(1);
    expect(w.stderr.text).toContain('the service answered about scan scn_OTHER when asked for scan scn_1');
    expect(w.requests()).toStrictEqual(['GET /scans/scn_1']);
  });

  it('a status cssctl does not know is named once and waited on until it is final', async () => {
    const w = verbWorld([
      json(scan({ status: 'skipped' })),
      json(scan({ status: 'skipped' })),
      json(scan({ status: 7 })),
      json(scan({ status: 'completed' })),
    ]);
    expect(await w.run(wait, {}, ['scn_1'])).toBe(0);
    const warnings = w.stderr.text.split('\n').filter((l) => l.startsWith('warning:'));
    expect(warnings).toStrictEqual([
      'warning: scan scn_1 has the status "skipped", which cssctl does not know; waiting until it is final or --wait-timeout passes',
      'warning: scan scn_1 has the status "7", which cssctl does not know; waiting until it is final or --wait-timeout passes',
    ]);
  });

  it('an unknown status until --wait-timeout: exit 9 with the resume command', async () => {
    const w = verbWorld(
      [
        // No poll is sent at the deadline itself (it would have no time left for its answer): three, not four.
        json(scan({ status: 'skipped' })),
        json(scan({ status: 'skipped' })),
        json(scan({ status: 'skipped' })),
      ],
      {
        argv: ['scans', 'wait', 'scn_1', '--wait-timeout', '3'],
      },
    );
    const code = await w.run(wait, { waitTimeout: 3 }, ['scn_1']);
    expect(code, w.stderr.text).toBe(9);
    expect(w.stderr.text).toContain('resume with: cssctl scans wait scn_1 --wait-timeout 3');
    expect(w.stderr.text.match(/does not know/g)).toHaveLength(1);
  });

  it('-o github reports the findings; the gate still comes from the counts', async () => {
    const w = verbWorld(
      [
        json(scan({ critical_count: 0, high_count: 0 })),
        json({ total: 0, findings: [], limit: 1 }),
        json({ total: 2, findings: [f('m1', 'medium'), f('l1', 'low')], limit: 1000, offset: 0 }),
      ],
      { output: 'github' },
    );
    expect(await w.run(wait, { failOn: 'high' }, ['scn_1'])).toBe(0);
    expect(w.stdout.text.split('\n').filter(Boolean)).toStrictEqual([
      expect.stringMatching(/^::warning title=Title m1::medium: arn/),
      expect.stringMatching(/^::notice title=Title l1::low: arn/),
    ]);
    expect(w.stderr.text).toContain('none at or above high');
  });
});
