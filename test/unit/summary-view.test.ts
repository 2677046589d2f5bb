import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';
import { SummaryCounter, isUtf8Locale, renderBar, renderSummary } from '../../src/report/summary-view.js';

const plain = new Chalk({ level: 0 });
const group = (by_severity: Record<string, number>) => ({
  key: 'k',
  count: Object.values(by_severity).reduce((a, b) => a + b, 0),
  by_severity,
});

describe('summary bars', () => {
  it('eighths at the end of a bar on UTF-8, whole # cells otherwise', () => {
    const o = { width: 80, unicode: true, color: plain };
    expect(renderBar(group({ high: 1 }), 'severity', 3.5, o)).toBe('███▌');
    expect(renderBar(group({ high: 1 }), 'severity', 0.125, o)).toBe('▏');
    expect(renderBar(group({ high: 1 }), 'severity', 0.01, o)).toBe('');
    expect(renderBar(group({ high: 1 }), 'severity', 3.5, { ...o, unicode: false })).toBe('####');
  });

  it('a stacked bar has exactly the length of the whole, one segment per severity', () => {
    const color = new Chalk({ level: 1 });
    const bar = renderBar(group({ critical: 1, high: 1, low: 1 }), 'connection', 10.25, {
      width: 80,
      unicode: true,
      color,
    });
    // eslint-disable-next-line no-control-regex
    const visible = bar.replace(/\u001b\[[0-9;]*m/g, '');
    expect(visible).toBe('██████████▎');
    expect(bar).toContain('\u001b[31m'); // red segments (critical, high)
    expect(bar).toContain('\u001b[34m'); // blue (low)
  });

  it('the largest row fills the width; rows largest first; locale from LC_ALL, LC_CTYPE, then LANG', () => {
    const c = new SummaryCounter('connection', (f) => String(f.connection_alias));
    for (let i = 0; i < 30; i++) c.add({ connection_alias: 'prod', severity: 'high' });
    for (let i = 0; i < 10; i++) c.add({ connection_alias: 'dev', severity: 'Low' });
    const s = c.summary();
    expect(s.groups.map((g) => g.key)).toEqual(['prod', 'dev']);
    expect(s.groups[1]!.by_severity.low).toBe(10);
    for (const width of [60, 120]) {
      const rows = renderSummary(s, { width, unicode: true, color: plain }).split('\n');
      expect(rows[1]!.length).toBe(width - 1);
    }
    expect(isUtf8Locale({ LANG: 'en_US.UTF-8' })).toBe(true);
    expect(isUtf8Locale({ LANG: 'en_US.UTF-8', LC_ALL: 'C' })).toBe(false);
    expect(isUtf8Locale({ LC_CTYPE: 'de_DE.utf8' })).toBe(true);
    expect(isUtf8Locale({})).toBe(false);
  });

  it('bars fit the terminal however long the keys: the key is cut, the bar kept (one line a row)', async () => {
    const { default: utils } = await import('cli-table3/src/utils.js');
    const text = {
      width: (t: string) => utils.strlen(t),
      cut: (t: string, w: number) => utils.truncate(t, w),
    };
    const c = new SummaryCounter('rule', (f) => String(f.rule_id));
    const long = 'aws-s3-bucket-server-side-encryption-with-customer-managed-keys-disabled';
    const wide = '東京リージョンのバケットが公開されていますのでご確認ください';
    const sevs = ['critical', 'high', 'medium', 'low', 'info'];
    for (let i = 0; i < 1000; i++) c.add({ rule_id: long, severity: sevs[i % 5] });
    for (let i = 0; i < 400; i++) c.add({ rule_id: wide, severity: sevs[i % 5] });
    for (let i = 0; i < 10; i++) c.add({ rule_id: 'short', severity: 'low' });
    const s = c.summary();
    for (const width of [60, 80, 100, 200]) {
      const rows = renderSummary(s, { width, unicode: true, color: plain, text }).trimEnd().split('\n');
      for (const row of rows) expect(utils.strlen(row), `${width}: ${row}`).toBeLessThanOrEqual(width - 1);
      // The largest row's bar fills what is left of the line: at least 10 cells.
      const bar = rows[1]!.match(/█+[▏▎▍▌▋▊▉]?$/)?.[0] ?? '';
      expect(bar.length, `${width}`).toBeGreaterThanOrEqual(10);
      expect(utils.strlen(rows[1]!), `${width}`).toBe(width - 1);
      if (width <= 100) expect(rows[1]).toContain('…');
    }
    // At 80 columns the keys are cut to fit, the columns after them stay aligned.
    const at80 = renderSummary(s, { width: 80, unicode: false, color: plain, text }).split('\n');
    const countEnd = (row: string, count: string) =>
      utils.strlen(row.slice(0, row.indexOf(` ${count} `) + count.length + 1));
    expect(
      new Set([countEnd(at80[1]!, '1,000'), countEnd(at80[2]!, '400'), countEnd(at80[3]!, '10')]).size,
    ).toBe(1);
  });
});
