// `-o sarif`: SARIF 2.1.0 that GitHub code scanning accepts (cli-contract.md §3, CI reports).
//
// Memory: results go into severity buckets (buckets.ts), which spill to temporary files past a few MiB, and are
// written most severe first when the stream ends; only the rule map (one small entry per distinct check) grows
// with the input. Writing at the end is what lets the 25,000-result cap GitHub sets keep the most severe
// findings, whatever order they arrive in, and lets the rules carry the highest severity seen for their check.
import type { Formatter, FormatterContext } from '../../core/format.js';
import { VERSION } from '../../version.js';
import { SEVERITIES, type Finding } from '../../api/findings-types.js';
import { diffOf } from '../diff.js';
import { ignoredOf } from '../ignore/stage.js';
import { fingerprintOf, ruleIdOf } from '../fingerprint.js';
import { OTHER, rankOf, severityLabel } from '../severity.js';
import { markdownText as md, text } from '../text.js';
import { pacedWriter, NonFindings, SeverityBuckets, type ReportOptions } from './buckets.js';

/** GitHub code scanning rejects a run with more results than this. */
export const SARIF_MAX_RESULTS = 25_000;
/**
 * Nor does it take more rules than this in a run; the findings of any further check share one rule, which also
 * bounds the rule map when a service gives no check ids and every title is different.
 */
export const SARIF_MAX_RULES = 25_000;
const OVERFLOW_RULE = 'cssctl/other-checks';

export const SARIF_SCHEMA_URI =
  'https://docs.oasis-open.org/sarif/sarif/v2.1.0/os/schemas/sarif-schema-2.1.0.json';

type Level = 'error' | 'warning' | 'note';

/** critical and high → error, medium → warning, low, info and unknown → note. */
export function sarifLevel(rank: number): Level {
  return rank <= 1 ? 'error' : rank === 2 ? 'warning' : 'note';
}

/**
 * `properties.security-severity` as GitHub reads it: critical ≥ 9.0, high 7.0–8.9, medium 4.0–6.9,
 * low 0.1–3.9 (a string holding a number, as GitHub's examples give it). Info and unknown severities get
 * none, so GitHub ranks them by `level` (note) instead of calling them a security severity.
 */
export const SECURITY_SEVERITY: readonly (string | undefined)[] = ['9.5', '8.0', '5.5', '2.0', undefined];

/**
 * A stable relative URI for the finding's resource. GitHub requires every result to have a physical location
 * with a URI, relative to the repository (an absolute URI or an `arn:` is rejected, and `arn:aws:…` would
 * parse as a URI scheme). Cloud resources are not files, so the URI is a made-up path that depends only on the
 * connection and the resource name: `cloud-resources/<connection>/<resource>`, each `/`-separated segment of the
 * resource percent-encoded (`:` → `%3A`). The same resource therefore keeps the same path across runs, which
 * GitHub combines with the fingerprint to track an alert. The exact resource name is also given as a logical
 * location.
 */
export function artifactUriOf(f: Finding): string {
  const conn = text(f.connection_alias).trim();
  const resource = text(f.resource);
  const path =
    resource.trim() === ''
      ? `findings/${encodeSegment(text(f.id) || 'unknown')}`
      : resource.replace(/^\/+/, '').split('/').map(encodeSegment).join('/');
  return `cloud-resources/${encodeSegment(conn === '' ? '_' : conn)}/${path}`;
}

function encodeSegment(s: string): string {
  if (s === '.' || s === '..') return s.replace(/\./g, '%2E');
  return encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

interface Rule {
  index: number;
  id: string;
  title: string;
  description: string;
  remediation: string;
  /** The most severe rank among its findings. */
  rank: number;
}

function ruleJson(r: Rule): Record<string, unknown> {
  const severity = r.rank < OTHER ? SEVERITIES[r.rank] : undefined;
  const full = r.description || r.title;
  const help = r.remediation || 'Review the resource named in the alert and correct its configuration.';
  const securitySeverity = SECURITY_SEVERITY[r.rank];
  const name = r.title
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join('');
  return {
    id: r.id,
    ...(name ? { name } : {}),
    shortDescription: { text: r.title || r.id },
    fullDescription: { text: full || r.id },
    help: {
      text: `${help}\n\nCheck: ${r.id}`,
      markdown: [
        `**${md(r.title || r.id)}**`,
        ...(r.description ? [md(r.description)] : []),
        `**Remediation:** ${md(help)}`,
        `Check: \`${r.id.replace(/`/g, "'")}\``,
      ].join('\n\n'),
    },
    defaultConfiguration: { level: sarifLevel(r.rank) },
    properties: {
      ...(securitySeverity ? { 'security-severity': securitySeverity } : {}),
      tags: ['security', 'cloud', ...(severity ? [severity] : [])],
    },
  };
}

function resultJson(f: Finding, rule: Rule): Record<string, unknown> {
  const rank = rankOf(f);
  const title = text(f.title) || rule.id;
  const resource = text(f.resource);
  const conn = text(f.connection_alias);
  const id = text(f.id);
  const hash = fingerprintOf(f);
  const facts = [
    `Severity: ${severityLabel(f)}`,
    ...(resource ? [`resource: ${resource}`] : []),
    ...(conn ? [`connection: ${conn}`] : []),
    ...(id ? [`finding: ${id}`] : []),
  ];
  return {
    ruleId: rule.id,
    ruleIndex: rule.index,
    level: sarifLevel(rank),
    message: { text: `${title}. ${facts.join('; ')}.` },
    locations: [
      {
        physicalLocation: {
          artifactLocation: { uri: artifactUriOf(f) },
          region: { startLine: 1 },
        },
        ...(resource ? { logicalLocations: [{ fullyQualifiedName: resource, kind: 'resource' }] } : {}),
      },
    ],
    ...(diffOf(f) ? { baselineState: diffOf(f)!.state } : {}),
    ...(ignoredOf(f)
      ? { suppressions: [{ kind: 'external', status: 'accepted', justification: ignoredOf(f)!.reason }] }
      : {}),
    partialFingerprints: {
      // GitHub reads this key (hex:occurrence); it combines it with the path and the rule.
      primaryLocationLineHash: `${hash.slice(0, 16)}:1`,
      'cssctlFindingHash/v1': hash,
    },
    properties: {
      severity: severityLabel(f),
      ...(id ? { 'finding-id': id } : {}),
      ...(conn ? { connection: conn } : {}),
      ...(f.scan_id !== undefined ? { 'scan-id': text(f.scan_id) } : {}),
      ...(f.status !== undefined ? { status: text(f.status) } : {}),
    },
  };
}

export function sarif(ctx: FormatterContext<Finding>, options: ReportOptions = {}): Formatter<Finding> {
  const max = options.maxResults ?? SARIF_MAX_RESULTS;
  const maxRules = options.maxRules ?? SARIF_MAX_RULES;
  const rules = new Map<string, Rule>();
  let folded = 0;
  const buckets = new SeverityBuckets({ ...options, warn: (m) => ctx.io.warn(m) });
  const RESULT_INDENT = '        ';
  const skipped = new NonFindings('sarif');
  let accepted = 0;
  /** Results per severity bucket: where the `max` cut falls is known before the text is read back. */
  const perBucket: number[] = Array.from({ length: OTHER + 1 }, () => 0);
  return {
    item(raw) {
      const f = skipped.accept(raw);
      if (!f) return;
      // A comparison's fixed finding is absent from the log: that is how code scanning closes its alert.
      if (diffOf(f)?.state === 'fixed') return;
      accepted++;
      let id = ruleIdOf(f);
      const rank = rankOf(f);
      let rule = rules.get(id);
      if (rule === undefined && rules.size >= maxRules - 1 && id !== OVERFLOW_RULE) {
        folded++;
        id = OVERFLOW_RULE;
        rule = rules.get(id) ?? {
          index: rules.size,
          id,
          title: 'Findings of further checks',
          description: `Findings of checks beyond the first ${(maxRules - 1).toLocaleString('en-US')} in this report, which a SARIF run for GitHub code scanning cannot describe one by one; each result's message names its own finding.`,
          remediation: '',
          rank,
        };
        rules.set(id, rule);
        rule.rank = Math.min(rule.rank, rank);
      } else if (rule === undefined) {
        rule = {
          index: rules.size,
          id,
          title: text(f.title),
          description: text(f.description),
          remediation: text(f.remediation),
          rank,
        };
        rules.set(id, rule);
      } else {
        rule.rank = Math.min(rule.rank, rank);
        rule.description ||= text(f.description);
        rule.remediation ||= text(f.remediation);
      }
      // Stored as written, separator first (stringified JSON holds no raw newline: one per result).
      buckets.add(rank, `,\n${RESULT_INDENT}${JSON.stringify(resultJson(f, rule))}`);
      perBucket[rank]!++;
    },
    async end({ complete }) {
      const write = pacedWriter(ctx);
      try {
        const count = accepted;
        skipped.warn(ctx);
        const left = Math.max(0, count - max);
        const notes: string[] = [];
        if (left > 0) {
          notes.push(
            `${left.toLocaleString('en-US')} of ${count.toLocaleString('en-US')} findings left out: GitHub code scanning accepts at most ${max.toLocaleString('en-US')} results per run; the most severe were kept`,
          );
          ctx.io.warn(`sarif: ${notes[0]}`);
        }
        if (folded > 0) {
          notes.push(
            `${folded.toLocaleString('en-US')} findings of checks beyond the first ${(maxRules - 1).toLocaleString('en-US')} share the rule ${OVERFLOW_RULE}`,
          );
          ctx.io.warn(`sarif: ${notes[notes.length - 1]}`);
        }
        if (!complete) notes.push(`interrupted: the report holds only the ${count} findings read before`);
        const driver = {
          name: 'cssctl',
          version: VERSION,
          semanticVersion: VERSION,
          rules: [...rules.values()].map(ruleJson),
        };
        const invocation = {
          executionSuccessful: complete,
          ...(notes.length
            ? {
                toolExecutionNotifications: notes.map((n) => ({
                  level: 'warning',
                  message: { text: `${n}.` },
                })),
              }
            : {}),
        };
        const head = [
          '{',
          `  "$schema": ${JSON.stringify(SARIF_SCHEMA_URI)},`,
          '  "version": "2.1.0",',
          '  "runs": [',
          '    {',
          `      "tool": { "driver": ${JSON.stringify(driver)} },`,
          `      "invocations": [${JSON.stringify(invocation)}],`,
          '      "columnKind": "utf16CodeUnits",',
          '      "results": [',
        ];
        ctx.write(`${head.join('\n')}\n`);
        let written = 0;
        let first = true;
        const emit = async (chunk: string) => {
          if (chunk === '') return;
          // The first result written loses its separator.
          await write(first ? chunk.slice(2) : chunk);
          first = false;
        };
        for (let b = 0; b <= OTHER && written < max; b++) {
          const quota = Math.min(perBucket[b]!, max - written);
          const cutHere = quota < perBucket[b]!;
          let seen = 0; // separators met in this bucket: one per result
          let carry = '';
          for (const piece of buckets.read(b)) {
            let chunk = carry + piece;
            carry = '';
            // A trailing "," waits for the next piece, so a ",\n" separator is never split between two writes.
            if (chunk.endsWith(',')) {
              carry = ',';
              chunk = chunk.slice(0, -1);
            }
            let at = -1;
            if (cutHere) {
              for (let i = chunk.indexOf('\n'); i >= 0; i = chunk.indexOf('\n', i + 1)) {
                if (++seen > quota) {
                  at = i - 1; // the cut goes before that result's ","
                  break;
                }
              }
            }
            await emit(at >= 0 ? chunk.slice(0, at) : chunk);
            if (at >= 0) break;
          }
          written += quota;
        }
        ctx.write(`${written === 0 ? '' : '\n'}      ]\n    }\n  ]\n}\n`);
      } finally {
        buckets.close();
      }
    },
  };
}
