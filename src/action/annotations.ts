// The step's annotations, and the few findings a pull-request comment shows. GitHub shows 10 annotations of each
// level (error, warning, notice) per step and drops the rest, so the step writes at most 10 per level — the most
// severe first, each line the one `-o github` writes for that finding — then one notice saying how many more
// there are and where they are. The findings pass through on their way to the report files (one read, as the
// CLI's exporter does it): only the kept lines and counts are held, never the findings themselves.
import type { Finding } from '../api/findings-types.js';
import type { ListSource } from '../core/output/index.js';
import { diffOf, DiffCounts } from '../report/diff.js';
import { commandFor, formatCommand, workflowCommand } from '../report/formats/github.js';
import { ignoredOf } from '../report/ignore/stage.js';
import type { Output, Result } from '../report/result.js';
import { rankOf } from '../report/severity.js';

/** GitHub shows this many annotations of each level per step. */
export const PER_LEVEL = 10;
/** The pull-request comment lists this many findings. */
export const LISTED = 10;

type Level = 'error' | 'warning' | 'notice';
const LEVELS: Level[] = ['error', 'warning', 'notice'];

/** A bounded list of the most severe, in stream order among equals. */
class MostSevere<T> {
  readonly items: { rank: number; item: T }[] = [];
  constructor(private readonly max: number) {}
  add(rank: number, item: T): void {
    const list = this.items;
    if (list.length === this.max && list[list.length - 1]!.rank <= rank) return;
    let i = list.length;
    while (i > 0 && list[i - 1]!.rank > rank) i--;
    list.splice(i, 0, { rank, item });
    if (list.length > this.max) list.pop();
  }
}

/** A finding as the comment shows it: a few fields, copied (the finding itself is not held). */
export interface Listed {
  severity: unknown;
  title: unknown;
  resource: unknown;
  id: unknown;
  state?: string;
}

export class Annotations {
  private readonly kept = new Map<Level, MostSevere<string>>(
    LEVELS.map((l) => [l, new MostSevere(PER_LEVEL)]),
  );
  private readonly total = new Map<Level, number>(LEVELS.map((l) => [l, 0]));
  private readonly listed = new MostSevere<Listed>(LISTED);
  /** Findings the comment counts (accepted risks and fixed ones left out). */
  shown = 0;
  private diff?: DiffCounts;
  /** Whether any findings passed (the verb had a findings report to write). */
  read = false;

  /** One finding on its way to the reports. */
  see(f: Finding): void {
    this.read = true;
    if (f === null || typeof f !== 'object' || ignoredOf(f)) return;
    const info = diffOf(f);
    if (info) (this.diff ??= new DiffCounts()).add(info);
    if (info?.state === 'fixed') return;
    const rank = rankOf(f);
    this.shown++;
    this.listed.add(rank, {
      severity: f.severity,
      title: f.title,
      resource: f.resource,
      id: f.id,
      state: info?.state,
    });
    // In a comparison, annotations for new and updated findings only, as -o github.
    if (info && info.state !== 'new' && info.state !== 'updated') return;
    const level = commandFor(rank);
    this.total.set(level, this.total.get(level)! + 1);
    this.kept.get(level)!.add(rank, workflowCommand(f));
  }

  /** The ten most severe findings, for the comment. */
  mostSevere(): Listed[] {
    return this.listed.items.map((e) => e.item);
  }

  /**
   * The result with its `-o github` findings output taken over: the findings pass through `see` on their way to
   * the report files, and the annotations are written by `lines()` once the outcome is known.
   */
  take(result: Result): Result {
    if (result.output === undefined) return result;
    const outputs = [result.output].flat().map((o): Output => {
      if (o.kind !== 'findings' || o.options.format !== 'github') return o;
      return { ...o, source: this.tee(o.source), options: { ...o.options, format: undefined } };
    });
    return { ...result, output: outputs };
  }

  private tee(source: ListSource<Finding>): ListSource<Finding> {
    const see = (f: Finding) => this.see(f);
    const out: ListSource<Finding> = {
      async *[Symbol.asyncIterator]() {
        for await (const f of source) {
          see(f);
          yield f;
        }
      },
    };
    if (source.pages) {
      const pages = source.pages.bind(source);
      out.pages = async function* () {
        for await (const batch of pages()) {
          for (const f of batch) see(f);
          yield batch;
        }
      };
    }
    if (source.page) out.page = source.page.bind(source);
    if (source.leftOut) out.leftOut = source.leftOut.bind(source);
    if (source.resume) out.resume = source.resume.bind(source);
    return out;
  }

  /**
   * The workflow commands: at most PER_LEVEL per level, most severe first, then one notice for the rest (naming
   * the report files that hold every finding), and a comparison's counts as -o github gives them.
   */
  lines(reports: readonly string[], summary = true): string {
    const out: string[] = [];
    let more = 0;
    const left: string[] = [];
    for (const level of LEVELS) {
      for (const { item } of this.kept.get(level)!.items) out.push(item);
      const n = this.total.get(level)! - this.kept.get(level)!.items.length;
      if (n > 0) {
        more += n;
        left.push(`${n} ${level === 'error' ? 'errors' : level === 'warning' ? 'warnings' : 'notices'}`);
      }
    }
    if (more > 0) {
      const places = [
        ...(summary ? ['the step summary'] : []),
        ...(reports.length > 0 ? [`the reports (${reports.join(', ')})`] : []),
      ];
      const where = places.length > 0 ? `: see ${places.join(' and ')}` : '';
      out.push(
        formatCommand(
          'notice',
          `cssctl: ${more} more finding${more === 1 ? '' : 's'} not annotated (${left.join(', ')}; GitHub shows ${PER_LEVEL} annotations per level)${where}`,
        ),
      );
    }
    if (this.diff) out.push(formatCommand('notice', `cssctl findings diff: ${this.diff.toString()}`));
    return out.map((l) => `${l}\n`).join('');
  }
}
