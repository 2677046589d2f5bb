// What a verb's run function returns: data, never text on stdout and never an exit code. The front end renders
// it — the CLI (src/cli/render.ts) through one exporter and one exit-code map; the MCP server as
// structuredContent; the GitHub Action as outputs — so every front end runs the same logic.
//
// Messages (notices, warnings, a spinner, a progress line) go through the context's IO while the verb runs,
// since a wait or a long read must say what it is doing as it does it; where they end up is the front end's
// choice (the terminal's stderr, or nothing).
import type { Finding } from '../api/findings-types.js';
import type { Column, Formats } from '../core/format.js';
import type { ColumnChoice, FieldLine, Items, ListSource } from '../core/output/index.js';
import type { ExportOptions } from './exporter.js';
import type { Gate } from './gate.js';
import type { StepSummary } from './step-summary.js';
import type { Summary } from './summary-view.js';

/** One record or document: key/value lines in a table (`fields` names and orders them), the object otherwise. */
export interface RecordOutput {
  kind: 'record';
  value: Record<string, unknown>;
  fields?: FieldLine[];
  format: string;
  /** Written atomically to this file instead of stdout (a scan summary with --output-file). */
  outputFile?: string;
  /**
   * In a table, one sentence says it instead of key/value lines (`✓ Logged in to … as …`); `ok` puts a check
   * mark before it.
   */
  sentence?: { text: string; ok?: boolean };
}

/** A JSON value as it is (`cssctl api`, `findings summary -o json`): pretty for json, one line for ndjson. */
export interface ValueOutput {
  kind: 'value';
  value: unknown;
  format: string;
}

/** Text for stdout as it is: a token, a completion script, a config value. */
export interface TextOutput {
  kind: 'text';
  text: string;
}

/** A list streamed in the chosen format (table, wide, json, ndjson, csv). */
export interface ListOutput<T = unknown> {
  kind: 'list';
  source: ListSource<T> | Items<T>;
  format: string;
  columns: Column<T>[];
  /** --columns chose them: shown as asked. */
  chosen?: boolean;
  /** The command takes --columns (the hint for hidden columns names it). */
  columnsOption?: boolean;
  /**
   * --columns (parseColumns, checked before any request): the fields it names, or `all`, are resolved against the
   * first page before anything is written (writeList).
   */
  choice?: ColumnChoice;
  noun: string;
  formats?: Formats<T>;
  /**
   * A line per item instead of a table (`webhooks listen`, `webhooks replay`): for `table`; json and ndjson
   * still write the items.
   */
  line?: (item: T) => string;
}

/** Findings in any format, to stdout or --output-file, and every --report, from one read (src/report/exporter.ts). */
export interface FindingsOutput {
  kind: 'findings';
  source: ListSource<Finding>;
  options: ExportOptions;
}

/** The findings summary view: bars on a terminal (src/report/summary-view.ts). */
export interface SummaryOutput {
  kind: 'summary';
  /** json: the object; anything else: the bars. */
  format: string;
  value: Summary & { ignored?: number };
}

export type Output = RecordOutput | ValueOutput | TextOutput | ListOutput | FindingsOutput | SummaryOutput;

/**
 * What the run came to, once its output is written (a report's gate is decided from the same read as the
 * report). The front end maps it to an exit code in one place.
 */
export interface Outcome {
  /** The --fail-on gate, decided once (src/report/gate.ts): exit 10 when met. */
  gate?: { gate: Gate; subject: string; what?: string };
  /**
   * The run did its work and the answer is "no": a scan that failed or a wait that timed out (exit 9), a
   * signature that is not valid or a receiver that refused (exit 1). Said in one line.
   */
  failure?: { kind: 'scan-failed' | 'timed-out' | 'refused'; message: string };
  /** Text for stdout after the output (under -o github, the ignore file's expired entries as warnings). */
  text?: string;
  /** For the GitHub Actions step summary (scans wait, scans create --wait). */
  stepSummary?: StepSummary;
  /** A step-summary section that is not a scan's, as Markdown (`cssctl compliance`). */
  summaryMarkdown?: string;
  /**
   * A gate on a number rather than on findings (`cssctl compliance --fail-under`): exit 10 with `line` when
   * failed.
   */
  limit?: { failed: boolean; line: string };
  /** Facts a front end may show as they are (the MCP server's structuredContent, the Action's outputs). */
  data?: Record<string, unknown>;
}

export interface Result {
  /** What goes to stdout (or --output-file and --report files); undefined: nothing. */
  output?: Output | Output[];
  /** Called once the output is written, or at once when there is none: the gate, a failure, the step summary. */
  finish?: () => Promise<Outcome>;
}

export const done: Result = {};

/**
 * A list of any item type as an Output. (A ListOutput<T> is not a ListOutput<unknown> to TypeScript, since its
 * columns take a T; the renderer hands every column the items of the same list, so the widening is safe.)
 */
export function list<T>(o: Omit<ListOutput<T>, 'kind'>): ListOutput {
  return { kind: 'list', ...o } as ListOutput;
}

export function record(value: Record<string, unknown>, format: string, fields?: FieldLine[]): Result {
  return { output: { kind: 'record', value, format, fields } };
}

/** A record that a table says in one sentence (`✓ Logged out of profile work`), the object in other formats. */
export function sentence(
  value: Record<string, unknown>,
  format: string,
  text: string,
  ok = true,
): RecordOutput {
  return { kind: 'record', value, format, sentence: { text, ok } };
}

/** Messages said after the output (a warning about the environment, a hint for what to do next). */
export function after(say: () => void): Pick<Result, 'finish'> {
  return {
    finish: async () => {
      say();
      return {};
    },
  };
}

export function text(value: string): Result {
  return { output: { kind: 'text', text: value } };
}

/** A verb: the work, from the context and the verb's own options and arguments, to a result. */
export type Verb<O, A extends string[] = string[]> = (
  ctx: import('../core/context.js').Context,
  opts: O,
  args: A,
) => Promise<Result>;
