// A docs/ page for a terminal (`cssctl help <topic>`): Markdown's marks taken away (links give their text,
// code spans lose their backticks), paragraphs wrapped to the width, tables laid out in columns that fit it —
// or, where they cannot, one record per row — and colour only through the styles given (none with NO_COLOR,
// --no-color or a pipe: the CLI decides, as for every other output).
import type { Block, Span } from './markdown.js';

export interface TerminalStyle {
  bold(text: string): string;
  dim(text: string): string;
  code(text: string): string;
}

export const NO_STYLE: TerminalStyle = { bold: (t) => t, dim: (t) => t, code: (t) => t };

export interface RenderOptions {
  /** Columns of the terminal (80 for a pipe); anything under MIN_WIDTH is taken as MIN_WIDTH. */
  width: number;
  /** Colour and weight; none (plain text) when not given. */
  style?: TerminalStyle;
}

/** Narrower than this, nothing is readable: a 0-column terminal (`script`, `docker -t`) gets this. */
export const MIN_WIDTH = 20;
/** The space between two table columns. */
const GAP = 2;

/** One piece of a word: text with one style. */
interface Piece {
  text: string;
  span: Span;
}
type Word = Piece[];

const length = (text: string): number => [...text].length;
const wordLength = (w: Word): number => w.reduce((n, p) => n + length(p.text), 0);

/** Links to other pages keep their text only; a web address is given after its text. */
function withLinks(spans: readonly Span[]): Span[] {
  const out: Span[] = [];
  for (let i = 0; i < spans.length; i++) {
    const s = spans[i]!;
    out.push(s);
    const href = s.href;
    if (href && spans[i + 1]?.href !== href && /^(https?|mailto):/i.test(href)) {
      let text = '';
      for (let j = i; j >= 0 && spans[j]!.href === href; j--) text = spans[j]!.text + text;
      if (text.trim() !== href && text.trim() !== href.replace(/^mailto:/i, ''))
        out.push({ text: ` (${href})` });
    }
  }
  return out;
}

/** Spans cut into words at white space; a word keeps the styles of its pieces. Explicit breaks are kept. */
function words(spans: readonly Span[]): (Word | '\n')[] {
  const out: (Word | '\n')[] = [];
  let word: Word = [];
  const end = () => {
    if (word.length) out.push(word);
    word = [];
  };
  for (const span of withLinks(spans)) {
    for (const part of span.text.split(/(\n|[ \t\r]+)/)) {
      if (part === '') continue;
      if (part === '\n') {
        end();
        // A line break inside a paragraph's source is a space; a hard break (two spaces, a br) is a span
        // of its own.
        if (span.text === '\n') out.push('\n');
      } else if (/^[ \t\r]+$/.test(part)) end();
      else word.push({ text: part, span });
    }
  }
  end();
  return out;
}

function paint(piece: Piece, style: TerminalStyle): string {
  let t = piece.text;
  if (piece.span.code) t = style.code(t);
  if (piece.span.strong) t = style.bold(t);
  return t;
}

/** A word longer than the width, cut into pieces that fit. */
function cut(word: Word, width: number): Word[] {
  const out: Word[] = [];
  let line: Word = [];
  let n = 0;
  for (const piece of word) {
    const chars = [...piece.text];
    let at = 0;
    while (at < chars.length) {
      const room = width - n;
      const take = chars.slice(at, at + room).join('');
      line.push({ text: take, span: piece.span });
      n += length(take);
      at += room;
      if (n >= width) {
        out.push(line);
        line = [];
        n = 0;
      }
    }
  }
  if (line.length) out.push(line);
  return out;
}

/** Wrapped lines of styled text, each at most `width` characters; returned with their visible lengths. */
function wrap(
  spans: readonly Span[],
  width: number,
  style: TerminalStyle,
): { text: string; length: number }[] {
  const lines: { text: string; length: number }[] = [];
  let line: string[] = [];
  let n = 0;
  const flush = () => {
    lines.push({ text: line.join(''), length: n });
    line = [];
    n = 0;
  };
  for (const w of words(spans)) {
    if (w === '\n') {
      flush();
      continue;
    }
    const len = wordLength(w);
    if (n > 0 && n + 1 + len > width) flush();
    if (len > width) {
      for (const part of cut(w, width)) {
        if (n > 0) flush();
        line.push(part.map((p) => paint(p, style)).join(''));
        n = wordLength(part);
      }
      continue;
    }
    if (n > 0) {
      line.push(' ');
      n++;
    }
    line.push(w.map((p) => paint(p, style)).join(''));
    n += len;
  }
  if (n > 0 || lines.length === 0) flush();
  return lines;
}

const pad = (line: { text: string; length: number }, width: number): string =>
  line.text + ' '.repeat(Math.max(0, width - line.length));

function longestWord(spans: readonly Span[]): number {
  return Math.max(0, ...words(spans).map((w) => (w === '\n' ? 0 : wordLength(w))));
}

function natural(spans: readonly Span[]): number {
  return Math.max(0, ...wrap(spans, Number.MAX_SAFE_INTEGER, NO_STYLE).map((l) => l.length));
}

/**
 * Column widths that fit `avail`. A column is given at least its natural width, or, where it must wrap, room for
 * its longest word and never less than 20 characters (narrower, a column of sentences reads a word a line):
 * undefined when that does not fit.
 */
function columnWidths(cells: Span[][][], avail: number): number[] | undefined {
  const columns = cells[0]?.length ?? 0;
  const widths = Array.from({ length: columns }, (_, c) =>
    Math.max(1, ...cells.map((r) => natural(r[c] ?? []))),
  );
  const floor = widths.map((w, c) =>
    Math.min(w, Math.max(20, Math.min(30, Math.max(...cells.map((r) => longestWord(r[c] ?? [])))))),
  );
  const total = () => widths.reduce((a, b) => a + b, 0) + GAP * (columns - 1);
  if (floor.reduce((a, b) => a + b, 0) + GAP * (columns - 1) > avail) return undefined;
  // Take from the widest column that can give, one column at a time.
  while (total() > avail) {
    let widest = -1;
    for (let c = 0; c < columns; c++)
      if (widths[c]! > floor[c]! && (widest < 0 || widths[c]! > widths[widest]!)) widest = c;
    widths[widest]!--;
  }
  return widths;
}

function table(block: Extract<Block, { kind: 'table' }>, avail: number, style: TerminalStyle): string[] {
  const all = [block.header, ...block.rows];
  const widths = columnWidths(all, avail);
  if (!widths) return records(block, avail, style);
  const out: string[] = [];
  const row = (cells: Span[][], header: boolean) => {
    const wrapped = widths.map((w, c) =>
      wrap(header ? (cells[c] ?? []).map((s) => ({ ...s, strong: true })) : (cells[c] ?? []), w, style),
    );
    const height = Math.max(...wrapped.map((l) => l.length));
    for (let i = 0; i < height; i++)
      out.push(
        widths
          .map((w, c) => pad(wrapped[c]![i] ?? { text: '', length: 0 }, w))
          .join(' '.repeat(GAP))
          .trimEnd(),
      );
  };
  row(block.header, true);
  out.push(style.dim(widths.map((w) => '-'.repeat(w)).join(' '.repeat(GAP))));
  for (const r of block.rows) row(r, false);
  return out;
}

/** A table too wide for the terminal: each row as `header: value` lines, rows apart. */
function records(block: Extract<Block, { kind: 'table' }>, avail: number, style: TerminalStyle): string[] {
  const names = block.header.map((h) => wrap(h, Number.MAX_SAFE_INTEGER, NO_STYLE)[0]!.text);
  const labelWidth = Math.max(...names.map((n) => length(n) + 1));
  const hanging = labelWidth + 1 <= avail / 3;
  const out: string[] = [];
  block.rows.forEach((r, i) => {
    if (i > 0) out.push('');
    r.forEach((cell, c) => {
      if (cell.every((s) => s.text.trim() === '')) return;
      const label = `${names[c] ?? ''}:`;
      if (hanging) {
        const lines = wrap(cell, avail - labelWidth - 1, style);
        lines.forEach((l, j) =>
          out.push(
            `${j === 0 ? style.bold(label) + ' '.repeat(labelWidth - length(label)) : ' '.repeat(labelWidth)} ${l.text}`.trimEnd(),
          ),
        );
      } else {
        out.push(style.bold(label));
        for (const l of wrap(cell, avail - 2, style)) out.push(`  ${l.text}`.trimEnd());
      }
    });
  });
  return out;
}

function heading(block: Extract<Block, { kind: 'heading' }>, avail: number, style: TerminalStyle): string[] {
  const lines = wrap(
    block.spans.map((s) => ({ ...s, strong: true })),
    avail,
    style,
  );
  // In colour a heading is bold; without, the first two levels are underlined.
  if (style !== NO_STYLE || block.depth > 2) return lines.map((l) => l.text);
  const longest = Math.max(...lines.map((l) => l.length));
  return [...lines.map((l) => l.text), (block.depth === 1 ? '=' : '-').repeat(longest)];
}

function render(list: readonly Block[], avail: number, style: TerminalStyle, tight = false): string[] {
  const out: string[] = [];
  list.forEach((block, i) => {
    if (i > 0 && !tight) out.push('');
    switch (block.kind) {
      case 'heading':
        out.push(...heading(block, avail, style));
        break;
      case 'paragraph':
        out.push(...wrap(block.spans, avail, style).map((l) => l.text));
        break;
      case 'code':
        for (const line of block.text.split('\n')) out.push(`    ${line}`.trimEnd());
        break;
      case 'list': {
        const marker = (n: number) => (block.ordered ? `${block.start + n}.` : '-');
        const markerWidth = Math.max(...block.items.map((_, n) => length(marker(n)))) + 1;
        const tightList = block.items.every((item) => item.length <= 1 || item[1]?.kind === 'list');
        block.items.forEach((item, n) => {
          if (n > 0 && !tightList) out.push('');
          const body = render(item, Math.max(1, avail - markerWidth), style, tightList);
          body.forEach((line, j) => {
            const prefix = j === 0 ? marker(n).padEnd(markerWidth) : ' '.repeat(markerWidth);
            out.push(line === '' ? '' : `${prefix}${line}`.trimEnd());
          });
        });
        break;
      }
      case 'table':
        out.push(...table(block, avail, style));
        break;
      case 'quote':
        for (const line of render(block.blocks, Math.max(1, avail - 2), style))
          out.push(`| ${line}`.trimEnd());
        break;
      case 'rule':
        out.push(style.dim('-'.repeat(Math.min(avail, 40))));
        break;
    }
  });
  return out;
}

/** The page as terminal text, ending with a newline. */
export function renderTerminal(blocks: readonly Block[], opts: RenderOptions): string {
  const width = Math.max(MIN_WIDTH, Math.floor(opts.width) || 0);
  return `${render(blocks, width, opts.style ?? NO_STYLE).join('\n')}\n`;
}
