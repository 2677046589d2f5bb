// The `args` input: more flags for the scan step, as a workflow writes them on one line (or several, in a YAML
// block). The text is split into words as a POSIX shell splits a simple command — blanks between words, '…' taken
// as it is, "…" with \" \\ \$ \` and a line continuation, \x outside quotes — and nothing else: no shell runs, so
// $VAR, $(…), globs, ~, ; | & and > are the characters they are. The words are then read as the flags of
// `cssctl scans create --wait` that the inputs do not already give (commander, with the CLI's own checks).
import { Command, CommanderError } from 'commander';
import type { Severity } from '../api/findings-types.js';
import { collectSeverities } from '../commands/findings/severity.js';
import { UsageError } from '../core/errors.js';
import { parseReportSpec, type ReportSpec } from '../report/report-spec.js';

/** The words of `text` as a shell would split them; throws on an unterminated quote or a trailing backslash. */
export function splitWords(text: string): string[] {
  const words: string[] = [];
  let word: string | undefined;
  let i = 0;
  const add = (s: string) => (word = (word ?? '') + s);
  while (i < text.length) {
    const c = text[i]!;
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') {
      if (word !== undefined) words.push(word);
      word = undefined;
      i++;
    } else if (c === "'") {
      const end = text.indexOf("'", i + 1);
      if (end < 0) throw new UsageError("input args: a quote (') is not closed");
      add(text.slice(i + 1, end));
      i = end + 1;
    } else if (c === '"') {
      add('');
      i++;
      for (;;) {
        if (i >= text.length) throw new UsageError('input args: a quote (") is not closed');
        const d = text[i]!;
        if (d === '"') {
          i++;
          break;
        }
        if (d === '\\' && i + 1 < text.length && '"\\$`\n'.includes(text[i + 1]!)) {
          if (text[i + 1] !== '\n') add(text[i + 1]!);
          i += 2;
          continue;
        }
        add(d);
        i++;
      }
    } else if (c === '\\') {
      if (i + 1 >= text.length) throw new UsageError('input args: a backslash ends it, escaping nothing');
      // A backslash before a line end joins the lines, as in a shell.
      if (text[i + 1] !== '\n') add(text[i + 1]!);
      i += 2;
    } else {
      add(c);
      i++;
    }
  }
  if (word !== undefined) words.push(word);
  return words;
}

/** What `args` may add to the scan step. */
export interface ExtraArgs {
  severity?: Severity[];
  /** false with --no-ignore. */
  ignore?: boolean;
  showIgnored?: boolean;
  /** false with --no-step-summary. */
  stepSummary?: boolean;
  report?: ReportSpec[];
}

/** Flags the action's inputs give: in `args` they are refused, naming the input. */
const OWNED: Record<string, string> = {
  '--connection': 'connection',
  '--fail-on': 'fail-on',
  '--baseline': 'baseline',
  '--wait-timeout': 'wait-timeout',
  '--max-wait': 'max-wait',
  '--ignore-file': 'ignore-file',
  '--base-url': 'base-url',
  '--workspace': 'workspace',
  '-w': 'workspace',
  '--email': 'email',
  '--password': 'password',
};

const TAKEN = ['--severity', '--no-ignore', '--show-ignored', '--no-step-summary', '--report'];

/** The flags of `args`, checked as the CLI checks them; a problem is exit 2 naming the input. */
export function parseArgs(raw: string): { words: string[]; extra: ExtraArgs } {
  const words = splitWords(raw);
  for (const w of words) {
    const name = w.split('=')[0]!;
    const input = OWNED[name];
    if (input !== undefined) throw new UsageError(`input args: ${name} has an input of its own: ${input}`);
  }
  const cmd = new Command('args')
    .exitOverride()
    .helpOption(false)
    .allowExcessArguments(false)
    .configureOutput({ writeErr: () => {}, writeOut: () => {} })
    .option('--severity <s[,s...]>', 'narrow the reports', collectSeverities)
    .option('--no-ignore', 'read no ignore file')
    .option('--show-ignored', 'keep ignored findings in the reports')
    .option('--no-step-summary', 'no step summary')
    .option('--report <format=path>', 'another report', (value: string, previous: ReportSpec[] = []) =>
      parseReportSpec(value, previous),
    );
  try {
    cmd.parse(words, { from: 'user' });
  } catch (err) {
    if (err instanceof CommanderError || err instanceof UsageError) {
      const why = err.message.replace(/^error: /, '');
      throw new UsageError(`input args: ${why} (args takes ${TAKEN.join(', ')})`);
    }
    throw err;
  }
  const o = cmd.opts<ExtraArgs>();
  return {
    words,
    extra: {
      severity: o.severity,
      ignore: o.ignore === false ? false : undefined,
      showIgnored: o.showIgnored,
      stepSummary: o.stepSummary === false ? false : undefined,
      report: o.report,
    },
  };
}
