// The terminal's front end for a verb's result (src/commands/result.ts): every output through its one writer
// (lists and records through core/output, findings through the one exporter), then the outcome, which
// outcomeError maps to an exit code — the only place a result becomes one.
import { PassThrough, Writable } from 'node:stream';
import type { Outcome, Output, Result } from '../report/result.js';
import type { Context } from '../core/context.js';
import { ExitCode, ExitError } from '../core/errors.js';
import { writeFileAtomic } from '../core/files.js';
import { IO } from '../core/io.js';
import { standardFormats, writeList, writeObject } from '../core/output/index.js';
import { loadTextWidth } from '../core/output/text-width.js';
import { exportFindings } from '../report/exporter.js';
import { gateLine } from '../report/gate.js';
import { appendMarkdown, stepSummaryPath, writeStepSummary } from '../report/step-summary.js';
import { isUtf8Locale, renderSummary } from '../report/summary-view.js';

/** Writes a result's output, then decides its outcome (and appends the step summary it asks for). */
export async function render(ctx: Context, result: Result): Promise<Outcome> {
  const outputs = result.output === undefined ? [] : [result.output].flat();
  for (const output of outputs) await write(ctx, output);
  const outcome = (await result.finish?.()) ?? {};
  if (outcome.text) ctx.io.out(outcome.text);
  if (outcome.stepSummary) await writeStepSummary(ctx, {}, outcome.stepSummary);
  if (outcome.summaryMarkdown) {
    const path = stepSummaryPath(ctx.env, {});
    if (path !== undefined) await appendMarkdown(path, outcome.summaryMarkdown, (m) => ctx.io.warn(m));
  }
  return outcome;
}

/** The error an outcome ends the command with, or undefined for exit 0. */
export function outcomeError(outcome: Outcome): ExitError | undefined {
  const { failure, gate } = outcome;
  if (failure)
    return new ExitError(failure.message, failure.kind === 'refused' ? ExitCode.error : ExitCode.scanFailed);
  if (gate?.gate.met) return new ExitError(gateLine(gate.subject, gate.gate, gate.what), ExitCode.failOn);
  if (outcome.limit?.failed) return new ExitError(outcome.limit.line, ExitCode.failOn);
  return undefined;
}

async function write(ctx: Context, o: Output): Promise<void> {
  const { io } = ctx;
  switch (o.kind) {
    case 'text':
      io.out(o.text);
      return;
    case 'value':
      io.out(`${o.format === 'ndjson' ? JSON.stringify(o.value) : JSON.stringify(o.value, null, 2)}\n`);
      return;
    case 'record':
      if (o.sentence && (o.format === 'table' || o.format === 'wide')) {
        io.out(`${o.sentence.ok ? `${io.color.green('✓')} ` : ''}${o.sentence.text}\n`);
        return;
      }
      if (o.outputFile === undefined) return writeObject(io, o.format, o.value, o.fields);
      return recordToFile(ctx, o.outputFile, (fileIO) => writeObject(fileIO, o.format, o.value, o.fields));
    case 'list': {
      const line = o.line;
      const formats =
        line === undefined
          ? { ...standardFormats<unknown>(), ...o.formats }
          : {
              ...standardFormats<unknown>(),
              table: () => ({ item: (item: unknown) => io.outBatched(`${line(item)}\n`), end: () => {} }),
            };
      await writeList(io, o.source, {
        format: o.format,
        columns: o.columns,
        chosen: o.chosen,
        columnsOption: o.columnsOption,
        choice: o.choice,
        noun: o.noun,
        formats,
        signal: ctx.signal,
      });
      return;
    }
    case 'findings':
      await exportFindings(ctx, o.source, o.options);
      return;
    case 'summary': {
      if (o.format === 'json') {
        io.out(`${JSON.stringify(o.value, null, 2)}\n`);
        return;
      }
      const columns = (io.stdout as { columns?: number }).columns;
      // Widths as the tables measure them: East Asian wide characters take two columns.
      io.out(
        renderSummary(o.value, {
          width: io.stdoutIsTTY && columns ? columns : 80,
          unicode: isUtf8Locale(ctx.env),
          color: io.color,
          text: await loadTextWidth(),
        }),
      );
      return;
    }
  }
}

/** A record written atomically to a file, as stdout would get it (no colour, no terminal). */
async function recordToFile(ctx: Context, path: string, fill: (io: IO) => Promise<void>): Promise<void> {
  const captured = new Collected();
  const io = new IO(
    { stdin: new PassThrough(), stdout: captured, stderr: ctx.io.stderr },
    { env: {}, noColorFlag: true },
  );
  await fill(io);
  await io.finishOutput();
  writeFileAtomic(path, captured.text, 0o644);
}

class Collected extends Writable {
  private readonly chunks: string[] = [];
  override _write(chunk: Buffer | string, _enc: BufferEncoding, cb: (err?: Error | null) => void): void {
    this.chunks.push(chunk.toString());
    cb();
  }
  get text(): string {
    return this.chunks.join('');
  }
}
