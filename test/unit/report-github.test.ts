import * as core from '@actions/core';
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { formatCommand, github, workflowCommand } from '../../src/report/formats/github.js';
import { TERMINAL_UNSAFE } from '../../src/report/text.js';
import { NASTY, finding, manyFindings, runReport } from '../helpers/report.js';

afterEach(() => vi.restoreAllMocks());

/** What @actions/core prints for error()/warning()/notice(), without its line end. */
function actionsCore(command: 'error' | 'warning' | 'notice', message: string, title?: string): string {
  const printed: string[] = [];
  const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    printed.push(String(chunk));
    return true;
  });
  try {
    core[command](message, title ? { title } : {});
  } finally {
    spy.mockRestore();
  }
  return printed.join('').replace(/\r?\n$/, '');
}

/**
 * The Actions runner's reading of a workflow command (ActionCommand.TryParseV2): the properties string is
 * trimmed and split on `,`, each property on its first `=`, empty parts dropped; then the escapes are undone.
 */
function runnerParse(line: string): { command: string; properties: Record<string, string>; message: string } {
  const m = /^::([^ :]+)( [^:]*)?::(.*)$/s.exec(line);
  if (!m) throw new Error(`not a workflow command: ${line}`);
  const unescape = (s: string, property: boolean) => {
    let out = s.replace(/%0D/g, '\r').replace(/%0A/g, '\n');
    if (property) out = out.replace(/%3A/g, ':').replace(/%2C/g, ',');
    return out.replace(/%25/g, '%');
  };
  const properties: Record<string, string> = {};
  for (const p of (m[2] ?? '').trim().split(',').filter(Boolean)) {
    const i = p.indexOf('=');
    if (i > 0 && i < p.length - 1) properties[p.slice(0, i)] = unescape(p.slice(i + 1), true);
  }
  return { command: m[1]!, properties, message: unescape(m[3]!, false) };
}

// The characters the escaping is about, and others that must pass untouched.
const interesting = fc.constantFrom(
  '%',
  ':',
  ',',
  '\r',
  '\n',
  '=',
  '"',
  "'",
  '<',
  '&',
  '::',
  'é',
  '漢',
  '😀',
  ' ',
  'a',
  '0',
  'A',
  '\t',
);
const serviceText = fc.array(interesting, { maxLength: 30 }).map((a) => a.join(''));

describe('github', () => {
  it('prints exactly what @actions/core prints for the same message and title', () => {
    for (const command of ['error', 'warning', 'notice'] as const) {
      expect(formatCommand(command, NASTY_PRINTABLE, NASTY_PRINTABLE)).toBe(
        actionsCore(command, NASTY_PRINTABLE, NASTY_PRINTABLE),
      );
      expect(formatCommand(command, 'no title')).toBe(actionsCore(command, 'no title'));
      expect(formatCommand(command, '')).toBe(actionsCore(command, ''));
    }
    fc.assert(
      fc.property(
        fc.constantFrom('error', 'warning', 'notice' as const),
        serviceText,
        serviceText,
        (c, msg, title) => {
          const ours = formatCommand(c as 'error', msg, title);
          expect(ours).toBe(actionsCore(c as 'error', msg, title));
          // and the runner reads back the text that was meant (it trims trailing spaces and tabs off the
          // properties, as it does for @actions/core's own commands; CR and LF are escaped, so they stay)
          const parsed = runnerParse(ours);
          const t = title.replace(/[ \t]+$/, '');
          expect(parsed).toStrictEqual({ command: c, properties: t ? { title: t } : {}, message: msg });
        },
      ),
      { numRuns: 300 },
    );
  });

  it('one line per finding: the title as title, severity, resource and id in the message', () => {
    const f = finding({
      id: 'fnd_1',
      severity: 'critical',
      title: 'IAM policy grants "*", incl. iam:PassRole',
    });
    expect(workflowCommand(f)).toBe(
      '::error title=IAM policy grants "*"%2C incl. iam%3APassRole::critical: arn:aws:s3:::acme-data-fnd_1 (finding fnd_1, connection prod)',
    );
    expect(runnerParse(workflowCommand(f)).properties.title).toBe(f.title);
    expect(
      workflowCommand(
        finding({ id: 'x', title: undefined, resource: undefined, connection_alias: undefined }),
      ),
    ).toBe('::error::high: finding (finding x)');
  });

  it('most severe first: critical and high → error, medium → warning, low, info, others → notice', async () => {
    const input = [
      finding({ id: 'l', severity: 'low' }),
      finding({ id: 'i', severity: 'info' }),
      finding({ id: 'h', severity: 'HIGH' }),
      finding({ id: 'o', severity: 'whatever' }),
      finding({ id: 'm', severity: 'medium' }),
      finding({ id: 'c', severity: 'critical' }),
    ];
    const { out } = await runReport(github, input);
    const lines = out.split('\n');
    expect(lines.pop()).toBe('');
    expect(lines.map((l) => /^::(\w+)/.exec(l)![1] + ' ' + /finding (\w+)/.exec(l)![1])).toStrictEqual([
      'error c',
      'error h',
      'warning m',
      'notice l',
      'notice i',
      'notice o',
    ]);
    expect(lines[3]).toContain('::low: ');
    expect(lines[5]).toContain('::whatever: ');
  });

  it('service text is escaped as the runner expects; control characters cannot reach the log', async () => {
    const f = finding({ id: 'n', title: NASTY, resource: NASTY, connection_alias: 'prod' });
    const { out } = await runReport(github, [f]);
    expect(out.split('\n')).toHaveLength(2); // one line and its end: no line break from the text
    // eslint-disable-next-line no-control-regex
    expect(out.slice(0, -1)).not.toMatch(/[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u202a-\u202e]/);
    const parsed = runnerParse(out.slice(0, -1));
    const shown = NASTY.replaceAll('\u001b', '\\u001b')
      .replace('\u0007', '\\u0007')
      .replace('\u0000', '\\u0000')
      .replace('\u007f', '\\u007f')
      .replace('\u0085', '\\u0085')
      .replace('\u009b', '\\u009b')
      .replace('\u202e', '\\u202e')
      .replace('\u202c', '\\u202c');
    expect(parsed.properties).toStrictEqual({ title: shown });
    expect(parsed.message).toBe(`high: ${shown} (finding n, connection prod)`);
  });

  it('groups any number of findings by severity with flat memory (spilling), same output', async () => {
    const a = await runReport(github, manyFindings(3000));
    const b = await runReport(github, manyFindings(3000), { spillBytes: 16 * 1024 });
    expect(b.out).toBe(a.out);
    expect(a.out.split('\n')).toHaveLength(3001);
  });
});

/** NASTY without the characters cssctl neutralises (which @actions/core passes through raw). */
const NASTY_PRINTABLE = NASTY.replace(TERMINAL_UNSAFE, '');

describe('items that are not findings', () => {
  it('are left out of every report format, with one warning saying how many', async () => {
    const { sarif } = await import('../../src/report/formats/sarif.js');
    const { junit } = await import('../../src/report/formats/junit.js');
    const items = [finding({ id: 'a' }), null, 'text', [1], finding({ id: 'b', severity: 'low' })] as never[];
    const s = await runReport(sarif, items);
    expect((JSON.parse(s.out) as { runs: { results: unknown[] }[] }).runs[0]!.results).toHaveLength(2);
    expect(s.err).toBe('warning: sarif: left out 3 items that are not a finding\n');
    const j = await runReport(junit, items);
    expect(j.out).toContain('<testsuites name="cssctl findings" tests="2" failures="2"');
    expect(j.err).toBe('warning: junit: left out 3 items that are not a finding\n');
    const g = await runReport(github, [null, finding({ id: 'c' })] as never[]);
    expect(g.out.split('\n')).toHaveLength(2);
    expect(g.err).toBe('warning: github: left out 1 item that is not a finding\n');
    expect((await runReport(github, [finding({ id: 'd' })])).err).toBe('');
  });
});
