// A report format describes itself (src/report/registry.ts): whether it keeps ignored findings, how --jq treats it,
// whether the Action offers it. Each place that acts on these facts reads the descriptor; each test here checks
// one of them against every format's descriptor, so a format whose facts change changes them everywhere.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { REPORT_INPUTS, readInputs } from '../../src/action/inputs.js';
import { STANDARD_FORMATS } from '../../src/core/output/formats.js';
import { jqMode } from '../../src/jq/stage.js';
import { keepsIgnored } from '../../src/report/ignore/index.js';
import { ACTION_REPORT_FORMATS, REPORT_FORMATS, reportFormats } from '../../src/report/registry.js';

const base = {
  'INPUT_BASE-URL': 'http://127.0.0.1:8787',
  INPUT_WORKSPACE: 'acme',
  INPUT_EMAIL: 'ci@acme.test',
  INPUT_PASSWORD: 'hunter2',
  INPUT_CONNECTION: 'prod',
};

describe('report format descriptors', () => {
  it('say what the contract says of each format', () => {
    expect(REPORT_FORMATS.filter((f) => reportFormats[f].keepsIgnored)).toEqual(['junit', 'html', 'ocsf']);
    expect(REPORT_FORMATS.filter((f) => reportFormats[f].actionInput)).toEqual([
      'sarif',
      'junit',
      'html',
      'ocsf',
    ]);
    expect(REPORT_FORMATS.filter((f) => 'jq' in reportFormats[f])).toEqual(['ocsf']);
  });

  it.each(REPORT_FORMATS)('%s: the ignore stage keeps ignored findings as its descriptor says', (f) => {
    expect(keepsIgnored(f, false)).toBe(reportFormats[f].keepsIgnored);
    expect(keepsIgnored(f, undefined)).toBe(reportFormats[f].keepsIgnored);
    expect(keepsIgnored(f, true)).toBe(true);
  });

  it.each(STANDARD_FORMATS)('%s: a standard format keeps ignored findings only with --show-ignored', (f) => {
    expect(keepsIgnored(f, false)).toBe(false);
    expect(keepsIgnored(f, true)).toBe(true);
  });

  it.each(REPORT_FORMATS)('%s: --jq treats it as its descriptor says', (f) => {
    const jq = (reportFormats[f] as { jq?: string }).jq;
    if (jq === undefined)
      expect(() => jqMode(f, undefined)).toThrow(`--jq works with -o json, ndjson or ocsf, not -o ${f}`);
    else expect(jqMode(f, undefined)).toBe(jq);
  });

  it('the Action reads a report input for each format it offers, and no other', () => {
    expect(REPORT_INPUTS).toEqual(ACTION_REPORT_FORMATS);
    const env: NodeJS.ProcessEnv = { ...base };
    for (const f of REPORT_FORMATS) env[`INPUT_${f.toUpperCase()}`] = `out/report.${f}`;
    expect(readInputs(env).reports.map((r) => r.format)).toEqual(ACTION_REPORT_FORMATS);
  });

  it('action.yml has an input and an output for each format the Action offers, and for no other', () => {
    const action = parse(readFileSync(new URL('../../action.yml', import.meta.url), 'utf8')) as {
      inputs: Record<string, unknown>;
      outputs: Record<string, unknown>;
    };
    for (const f of REPORT_FORMATS) {
      expect(f in action.inputs, `input ${f}`).toBe(reportFormats[f].actionInput);
      expect(f in action.outputs, `output ${f}`).toBe(reportFormats[f].actionInput);
    }
  });
});
