// `-o junit`: JUnit XML valid against Jenkins xUnit's junit-10.xsd (cli-contract.md §3, CI reports), which
// GitLab, Jenkins, Azure DevOps and most CI systems read: one <testsuite> per severity, one <testcase> per
// finding; the findings at or above --fail-on (every finding without it) carry a <failure> unless the run's gate
// passed, and when the run's gate was met by findings this report does not list, one test case for the gate fails
// too (gateCase): the report fails exactly when the run's verdict does.
//
// A testsuite's counts are attributes of its start tag, so each suite must be complete before it is written,
// and findings do not always arrive sorted by severity: test cases go into severity buckets (buckets.ts), which
// spill to temporary files past a few MiB, and the document is written when the stream ends. Memory stays
// flat whatever the number of findings.
//
// XML 1.0 cannot carry most C0 control characters (U+0000–U+0008, U+000B, U+000C, U+000E–U+001F), the
// non-characters U+FFFE and U+FFFF, or unpaired surrogates — not even as character references. Each one is
// replaced by its JSON escape as visible text (ESC becomes the six characters `\u001b`), so the report stays
// valid and shows that something was there. Everything else survives: tab, CR and LF inside attributes, CR in
// text, DEL and the C1 controls are written as character references so no parser normalises them away, and
// `<`, `&`, `>` and quotes are escaped as XML requires.
import type { Formatter, FormatterContext } from '../../core/format.js';
import { SEVERITIES, type Finding } from '../../api/findings-types.js';
import { diffOf } from '../diff.js';
import { countsForGate } from '../gate.js';
import { ignoredOf, type IgnoredInfo } from '../ignore/stage.js';
import { OTHER, asSeverity, rankOf, severityLabel } from '../severity.js';
import { text, visibleEscape } from '../text.js';
import { pacedWriter, SeverityBuckets, NonFindings, type ReportOptions } from './buckets.js';

// eslint-disable-next-line no-control-regex
const XML_INVALID = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff\ud800-\udfff]/gu;

function charRef(c: string): string {
  return `&#x${c.charCodeAt(0).toString(16).toUpperCase()};`;
}

/** Character data: `<`, `&`, `>` escaped; CR, DEL and C1 as character references; invalid characters made visible. */
export function xmlText(s: string): string {
  return s
    .replace(XML_INVALID, visibleEscape)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/[\r\u007f-\u009f]/g, charRef);
}

/** An attribute value in double quotes: as text, plus `"` and the whitespace a parser would normalise. */
export function xmlAttr(s: string): string {
  return xmlText(s)
    .replace(/"/g, '&quot;')
    .replace(/[\t\n]/g, charRef);
}

/** Bucket 0–4 are the five severities; 5 holds severities cssctl does not know. */
const SUITE_NAMES = [...SEVERITIES, 'other'];

/** The test case of one finding; `name` is unique within its classname because the finding id is in it. */
function testcase(f: Finding, failed: boolean, ignored?: IgnoredInfo): string {
  const sev = severityLabel(f);
  const title = text(f.title) || '(untitled finding)';
  const resource = text(f.resource);
  const id = text(f.id);
  const classname = text(f.connection_alias) || 'cssctl';
  const name = `${title}${resource ? ` — ${resource}` : ''}${id ? ` [${id}]` : ''}`;
  const details = [
    `severity: ${sev}`,
    `title: ${title}`,
    ...(resource ? [`resource: ${resource}`] : []),
    ...(id ? [`finding: ${id}`] : []),
    ...(f.connection_alias !== undefined ? [`connection: ${text(f.connection_alias)}`] : []),
    ...(f.scan_id !== undefined ? [`scan: ${text(f.scan_id)}`] : []),
    ...(f.status !== undefined ? [`status: ${text(f.status)}`] : []),
    ...(f.description !== undefined ? ['', text(f.description)] : []),
    ...(f.remediation !== undefined ? ['', `remediation: ${text(f.remediation)}`] : []),
  ].join('\n');
  const body = ignored
    ? `<skipped message="${xmlAttr(`ignored until ${ignored.expires}: ${ignored.reason} (${ignored.source})`)}"/>`
    : failed
      ? `<failure type="${xmlAttr(sev)}" message="${xmlAttr(`${sev}: ${title}${resource ? ` — ${resource}` : ''}`)}">${xmlText(details)}</failure>`
      : `<system-out>${xmlText(details)}</system-out>`;
  return `    <testcase name="${xmlAttr(name)}" classname="${xmlAttr(classname)}" time="0">\n      ${body}\n    </testcase>\n`;
}

/**
 * The gate's verdict as the run decided it (ReportAbout.verdict: the counts the exit code reads, the service's
 * totals when no ignore file or baseline applies), when none of the test cases fails but the gate was met: the
 * findings that met it are not all in this report (--severity narrowed it, or the service counted more than it
 * listed), so one failing test case in the threshold's suite says so, and the report fails as the run does.
 * Undefined otherwise.
 */
function gateCase(
  verdict: { met: boolean; count: number; threshold: string } | undefined,
  failures: number,
): { bucket: number; text: string } | undefined {
  if (verdict === undefined || !verdict.met || failures > 0) return undefined;
  const what = `${verdict.count.toLocaleString('en-US')} finding${verdict.count === 1 ? '' : 's'} at or above ${verdict.threshold}`;
  const message = `--fail-on ${verdict.threshold}: ${what}, not listed in this report`;
  return {
    bucket: rankOf({ severity: verdict.threshold }),
    text:
      `    <testcase name="${xmlAttr(`--fail-on ${verdict.threshold}`)}" classname="cssctl gate" time="0">\n` +
      `      <failure type="gate" message="${xmlAttr(message)}">${xmlText(message)}</failure>\n    </testcase>\n`,
  };
}

export function junit(ctx: FormatterContext<Finding>, options: ReportOptions = {}): Formatter<Finding> {
  const buckets = new SeverityBuckets({ ...options, warn: (m) => ctx.io.warn(m) });
  const tests = new Array<number>(OTHER + 1).fill(0);
  const failures = new Array<number>(OTHER + 1).fill(0);
  const skippedCases = new Array<number>(OTHER + 1).fill(0);
  // The threshold the gate is decided with (the command passes the one it gives the gate, never another).
  const failOn = asSeverity(options.failOn ?? ctx.failOn);
  const skipped = new NonFindings('junit');
  // Whether the run's gate passed (ReportAbout.verdict: the gate the command decided once, which the exit code
  // reads). Decided before the read from the service's totals, it may say passed while the service lists a
  // finding at or above the threshold: that test case then passes too, so the report never fails a run that
  // exits 0. Counted over this same read, a finding is counted before it gets here: the verdict is met by then.
  // Met stays met; no verdict (no gate) leaves the rule alone.
  let met = false;
  const gatePassed = (): boolean => {
    if (met) return false;
    const verdict = ctx.about?.verdict?.();
    if (verdict === undefined || verdict.met) met = true;
    return !met;
  };
  return {
    item(raw) {
      const f = skipped.accept(raw);
      if (!f) return;
      // In a comparison, only the head's findings are test cases, and only new and updated ones can fail.
      const state = diffOf(f)?.state;
      if (state === 'fixed') return;
      const b = rankOf(f);
      const ignored = ignoredOf(f);
      if (ignored) {
        // An accepted risk: a skipped test case giving the reason and until when.
        tests[b]!++;
        skippedCases[b]!++;
        buckets.add(b, testcase(f, false, ignored));
        return;
      }
      // The gate's own rule (without --fail-on every finding is a failure: cli-contract.md §3, junit), as far as
      // the run's verdict goes: a gate that passed fails no test case.
      const failed = countsForGate(f, failOn) && !gatePassed();
      tests[b]!++;
      if (failed) failures[b]!++;
      buckets.add(b, testcase(f, failed));
    },
    async end({ complete }) {
      const write = pacedWriter(ctx);
      try {
        const sum = (xs: number[]) => xs.reduce((a, x) => a + x, 0);
        const name = complete ? 'cssctl findings' : 'cssctl findings (incomplete: interrupted)';
        const gate = gateCase(ctx.about?.verdict?.(), sum(failures));
        ctx.write(
          `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="${name}" tests="${sum(tests) + (gate ? 1 : 0)}" failures="${sum(failures) + (gate ? 1 : 0)}" errors="0" time="0">\n`,
        );
        for (let b = 0; b <= OTHER; b++) {
          // The five severities always have a suite (an empty one says "none found"); "other" only when used.
          if (b === OTHER && tests[b] === 0 && gate?.bucket !== b) continue;
          const extra = gate?.bucket === b ? 1 : 0;
          ctx.write(
            `  <testsuite name="${SUITE_NAMES[b]}" tests="${tests[b]! + extra}" failures="${failures[b]! + extra}" errors="0" skipped="${skippedCases[b]}" time="0">\n`,
          );
          if (extra) ctx.write(gate!.text);
          for (const chunk of buckets.read(b)) await write(chunk);
          ctx.write('  </testsuite>\n');
        }
        ctx.write('</testsuites>\n');
        skipped.warn(ctx);
      } finally {
        buckets.close();
      }
    },
  };
}
