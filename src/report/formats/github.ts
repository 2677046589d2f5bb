// `-o github`: GitHub Actions workflow commands, one line per finding, most severe first (cli-contract.md §3):
//   ::error title=<title>::<severity>: <resource> (finding <id>, connection <alias>)
// critical and high → ::error, medium → ::warning, low, info and unknown severities → ::notice.
//
// Escaping is the runner's, as @actions/core writes it (checked against it in a test): in the message `%`, CR
// and LF become %25, %0D, %0A; in a property value also `:` → %3A and `,` → %2C. Nothing else can be escaped
// (the runner decodes only those), so other control characters, DEL, C1 and bidirectional overrides — which
// would otherwise reach the job log, where ANSI sequences are interpreted — are shown as their JSON escape
// (ESC becomes the six characters `\u001b`), as tables neutralise them.
//
// Lines are grouped in severity buckets (buckets.ts) to come out most severe first with flat memory.
import type { Formatter, FormatterContext } from '../../core/format.js';
import type { Finding } from '../../api/findings-types.js';
import { DiffCounts, diffOf } from '../diff.js';
import { ignoredOf } from '../ignore/stage.js';
import { OTHER, rankOf, severityLabel } from '../severity.js';
import { neutraliseControls, text } from '../text.js';
import { pacedWriter, NonFindings, SeverityBuckets, type ReportOptions } from './buckets.js';

export function escapeData(s: string): string {
  return neutraliseControls(s).replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

export function escapeProperty(s: string): string {
  return escapeData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

export function commandFor(rank: number): 'error' | 'warning' | 'notice' {
  return rank <= 1 ? 'error' : rank === 2 ? 'warning' : 'notice';
}

/**
 * One workflow command line (without its line end) as @actions/core's error()/warning()/notice() print it:
 * a property with an empty value is left out, and no properties at all means no space after the command.
 */
export function formatCommand(
  command: 'error' | 'warning' | 'notice',
  message: string,
  title?: string,
): string {
  const props = title ? ` title=${escapeProperty(title)}` : '';
  return `::${command}${props}::${escapeData(message)}`;
}

/** The workflow command of one finding: its title as `title`, severity, resource and id in the message. */
export function workflowCommand(f: Finding): string {
  const title = text(f.title);
  const resource = text(f.resource);
  const id = text(f.id);
  const conn = text(f.connection_alias);
  const where = [...(id ? [`finding ${id}`] : []), ...(conn ? [`connection ${conn}`] : [])].join(', ');
  const info = diffOf(f);
  const state = info
    ? ` (${info.state}${info.previous_severity ? ` from ${text(info.previous_severity)}` : ''})`
    : '';
  const message = `${severityLabel(f)}${state}: ${resource || title || 'finding'}${where ? ` (${where})` : ''}`;
  return formatCommand(commandFor(rankOf(f)), message, title);
}

export function github(ctx: FormatterContext<Finding>, options: ReportOptions = {}): Formatter<Finding> {
  const buckets = new SeverityBuckets({ ...options, warn: (m) => ctx.io.warn(m) });
  const skipped = new NonFindings('github');
  let counts: DiffCounts | undefined;
  return {
    item(raw) {
      const f = skipped.accept(raw);
      if (!f) return;
      // An accepted risk gets no annotation.
      if (ignoredOf(f)) return;
      // In a comparison, annotations for new and updated findings only; the counts come as one notice.
      const info = diffOf(f);
      if (info) {
        counts ??= new DiffCounts();
        counts.add(info);
        if (info.state !== 'new' && info.state !== 'updated') return;
      }
      buckets.add(rankOf(f), `${workflowCommand(f)}\n`);
    },
    async end() {
      const write = pacedWriter(ctx);
      try {
        for (let b = 0; b <= OTHER; b++) for (const chunk of buckets.read(b)) await write(chunk);
        if (counts) await write(`${formatCommand('notice', `cssctl findings diff: ${counts.toString()}`)}\n`);
        skipped.warn(ctx);
      } finally {
        buckets.close();
      }
    },
  };
}
