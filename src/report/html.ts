// `-o html` (cli-contract.md §9): one self-contained HTML5 page, streamed. The head (with a Content-Security-
// Policy that forbids everything external) and the table's start are written first, then one row per
// finding as it arrives, then — once every finding is counted — the summary (severity chart as inline SVG,
// top connections and rules, the --fail-on verdict) and the script; CSS `order` shows the summary above the
// table. Only the counts are held, never the findings: memory stays flat. Every text from the service is
// HTML-escaped; no data is embedded as JSON (the script reads the table).
import { SEVERITIES, type Finding } from '../api/findings-types.js';
import type { Formatter, FormatterContext } from '../core/format.js';
import { VERSION } from '../version.js';
import { ruleIdOf } from './fingerprint.js';
import { NonFindings, pacedWriter, type ReportOptions } from './formats/buckets.js';
import { OTHER, rankOf, severityLabel } from './severity.js';
import { text } from './text.js';
import { ignoredOf } from './ignore/stage.js';
import { diffOf } from './diff.js';
import { CSP, SCRIPT, STYLE } from './html-template.js';

/** `&`, `<`, `>`, `"` and `'` as entities: text stays text in an element or an attribute. */
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** How many of the connections and rules with the most findings the summary lists. */
const TOP = 8;

export function html(ctx: FormatterContext<Finding>, _options: ReportOptions = {}): Formatter<Finding> {
  const write = pacedWriter(ctx);
  const nonFindings = new NonFindings('html');
  const bySeverity = new Map<string, number>();
  const byConnection = new Map<string, number>();
  const byRule = new Map<string, number>();
  let states = 0;
  let ignoredSeen = 0;
  /** Whether the rows are a comparison's (findings diff, --baseline). */
  let compared = false;
  /** The rows that count: every row but the ignored ones. */
  let counted = 0;
  const bump = (m: Map<string, number>, k: string) => m.set(k, (m.get(k) ?? 0) + 1);
  const about = ctx.about ?? {};
  const when = new Date()
    .toISOString()
    .replace('T', ' ')
    .replace(/\.\d+Z$/, ' UTC');
  const title = about.subject ?? 'findings';

  ctx.write(
    `<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">` +
      `<meta http-equiv="Content-Security-Policy" content="${escapeHtml(CSP)}">` +
      `<meta name="referrer" content="no-referrer"><meta name="viewport" content="width=device-width,initial-scale=1">` +
      `<title>cssctl report — ${escapeHtml(title)}</title><style>${STYLE}</style></head><body>\n` +
      `<header><h1>cssctl report — ${escapeHtml(title)}</h1><div class="meta">` +
      (about.workspace ? `<span>workspace <b>${escapeHtml(about.workspace)}</b></span>` : '') +
      `<span>generated <b>${escapeHtml(when)}</b></span><span>cssctl <b>${escapeHtml(VERSION)}</b></span>` +
      `</div></header>\n<section id="findings"><h2>Findings</h2>` +
      `<div class="controls" hidden><input id="q" type="search" placeholder="Filter by any text…" aria-label="filter">` +
      `<select id="sev" aria-label="severity"><option value="">every severity</option>` +
      SEVERITIES.map((s) => `<option>${s}</option>`).join('') +
      `</select><select id="state" aria-label="state"><option value="">every state</option>` +
      ['new', 'updated', 'unchanged', 'fixed', 'ignored'].map((s) => `<option>${s}</option>`).join('') +
      `</select><span id="shown"></span></div>\n<table><thead><tr>` +
      `<th data-key="severity">Severity</th><th data-key="title">Title</th><th data-key="resource">Resource</th>` +
      `<th data-key="connection">Connection</th><th data-key="rule">Rule</th><th data-key="state" class="c-state">State</th>` +
      `<th data-key="ignored" class="c-ignored">Ignored</th><th data-key="id">ID</th></tr></thead><tbody>\n`,
  );

  const row = (f: Finding): string => {
    const rank = rankOf(f);
    const sev = severityLabel(f);
    const conn = text(f.connection_alias);
    const rule = ruleIdOf(f);
    const state = text(f.state);
    if (state) states++;
    // An accepted risk (§8): a row of its own, counted apart — never in the findings, the chart, the top lists
    // or the verdict, as it never counts for --fail-on.
    const ign =
      (ignoredOf(f) as Record<string, unknown> | undefined) ??
      (f.ignored && typeof f.ignored === 'object' ? (f.ignored as Record<string, unknown>) : undefined);
    if (ign) ignoredSeen++;
    else {
      counted++;
      bump(bySeverity, rank < OTHER ? sev : 'other');
      if (conn) bump(byConnection, conn);
      bump(byRule, rule);
      if (diffOf(f)) compared = true;
    }
    const ignoredText = ign ? `${text(ign.reason)}${ign.expires ? ` (until ${text(ign.expires)})` : ''}` : '';
    const dataState = ign ? 'ignored' : state;
    return (
      `<tr class="s${rank}${ign ? ' ignored' : ''}" data-rank="${rank}" data-sev="${escapeHtml(sev)}" data-state="${escapeHtml(dataState)}">` +
      `<td class="sev"><span>${escapeHtml(sev)}</span></td><td>${escapeHtml(text(f.title))}</td>` +
      `<td class="res">${escapeHtml(text(f.resource))}</td><td>${escapeHtml(conn)}</td>` +
      `<td class="muted">${escapeHtml(rule)}</td><td class="c-state">${escapeHtml(state)}</td>` +
      `<td class="c-ignored muted">${escapeHtml(ignoredText)}</td><td class="id">${escapeHtml(text(f.id))}</td></tr>\n`
    );
  };

  return {
    item(item) {
      const f = nonFindings.accept(item);
      if (!f) return;
      return write(row(f));
    },
    items(items) {
      let out = '';
      for (const item of items) {
        const f = nonFindings.accept(item);
        if (!f) continue;
        out += row(f);
      }
      return write(out);
    },
    async end({ complete }) {
      let tail = '</tbody></table></section>\n';
      // Columns no finding filled are hidden (known only now: the head was written first).
      const hide = [states === 0 ? '.c-state' : '', ignoredSeen === 0 ? '.c-ignored' : ''].filter(Boolean);
      if (hide.length > 0) tail += `<style>${hide.join(',')}{display:none}</style>\n`;
      tail += `<section id="summary">${verdictCard(
        // The command's own gate, as the exit code has it: never a count of the rows shown, which --severity
        // may have narrowed and which, in a comparison, hold unchanged findings too.
        about.verdict?.(),
        counted,
        ignoredSeen,
        complete,
        compared,
      )}${severityChart(bySeverity)}`;
      tail += topList('Connections with the most findings', byConnection);
      tail += topList('Rules with the most findings', byRule);
      tail += `</section>\n<footer>Generated by cssctl ${escapeHtml(VERSION)}. Self-contained: this page loads nothing from the network.</footer>\n`;
      tail += `<script>${SCRIPT}</script>\n</body></html>\n`;
      await write(tail);
      nonFindings.warn(ctx);
    },
  };
}

function verdictCard(
  gate: { met: boolean; count: number; threshold: string } | undefined,
  total: number,
  ignored: number,
  complete: boolean,
  compared = false,
): string {
  const fmt = (n: number) => n.toLocaleString('en-US');
  const what = compared ? 'new or raised finding' : 'finding';
  let verdict: string;
  if (gate === undefined) verdict = `<span class="verdict none">no --fail-on gate</span>`;
  else if (gate.met)
    verdict = `<span class="verdict fail">failed</span> ${fmt(gate.count)} ${what}${gate.count === 1 ? '' : 's'} at or above ${escapeHtml(gate.threshold)}`;
  else
    verdict = `<span class="verdict pass">passed</span> nothing${compared ? ' new or raised' : ''} at or above ${escapeHtml(gate.threshold)}`;
  return (
    `<div class="card"><h2>Verdict</h2><p style="font-size:28px;font-weight:700;margin:0">${fmt(total)} finding${total === 1 ? '' : 's'}</p>` +
    (ignored > 0 ? `<p class="muted">and ${fmt(ignored)} ignored (accepted risk)</p>` : '') +
    `<p>${verdict}</p>${complete ? '' : '<p><b>Incomplete:</b> the command stopped before every finding was read.</p>'}</div>`
  );
}

/** Counts by severity as horizontal bars in inline SVG. */
function severityChart(counts: Map<string, number>): string {
  const keys = [...SEVERITIES, ...(counts.has('other') ? ['other'] : [])];
  const max = Math.max(1, ...keys.map((k) => counts.get(k) ?? 0));
  const rowH = 26;
  const colour: Record<string, string> = {
    critical: 'var(--critical)',
    high: 'var(--high)',
    medium: 'var(--medium)',
    low: 'var(--low)',
    info: 'var(--info)',
    other: 'var(--info)',
  };
  let svg = `<svg role="img" aria-label="findings by severity" viewBox="0 0 270 ${keys.length * rowH}" width="100%">`;
  keys.forEach((k, i) => {
    const n = counts.get(k) ?? 0;
    const w = Math.round((n / max) * 150);
    const y = i * rowH;
    svg +=
      `<text x="0" y="${y + 17}">${k}</text><rect x="66" y="${y + 5}" width="${Math.max(w, n > 0 ? 2 : 0)}" height="16" rx="3" fill="${colour[k]}"/>` +
      `<text x="${72 + w}" y="${y + 17}">${n.toLocaleString('en-US')}</text>`;
  });
  return `<div class="card"><h2>By severity</h2>${svg}</svg></div>`;
}

function topList(title: string, counts: Map<string, number>): string {
  const top = [...counts.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).slice(0, TOP);
  const items = top.map(
    ([k, n]) =>
      `<li><span title="${escapeHtml(k)}">${escapeHtml(k)}</span><span>${n.toLocaleString('en-US')}</span></li>`,
  );
  return `<div class="card"><h2>${escapeHtml(title)}</h2><ol>${items.join('') || '<li><span>none</span></li>'}</ol></div>`;
}
