// Writing man(7) source. Every byte of text is escaped for roff: a backslash is `\e`, every hyphen `\-` (so
// `--all` stays two hyphen-minus signs a reader can copy), anything outside printable ASCII `\[uXXXX]` (so
// groff needs no input encoding), and a text line that starts with `.` or `'` is protected with `\&`, so no
// word from a description can become a request. Checked with groff -man -ww (test/unit/man.test.ts).
import type { Block, Span } from '../help/markdown.js';

/** Text for roff: escapes, hyphens, non-ASCII; controls and line breaks become spaces. */
export function roffText(text: string): string {
  let out = '';
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    if (ch === '\\') out += '\\e';
    else if (ch === '-') out += '\\-';
    else if (cp === 0x0a || cp === 0x09 || cp === 0x0d) out += ' ';
    else if (cp < 0x20 || cp === 0x7f || (cp >= 0x80 && cp < 0xa0)) continue;
    else if (cp > 0x7e) out += `\\[u${cp.toString(16).toUpperCase().padStart(4, '0')}]`;
    else out += ch;
  }
  return out;
}

/** A macro argument: escaped, and quoted (a double quote inside as `\(dq`). */
export function roffArg(text: string): string {
  return `"${roffText(text).replace(/"/g, '\\(dq')}"`;
}

/** Lines of a man page: macros as they are, text lines guarded. */
export class Roff {
  private readonly lines: string[] = [];

  macro(name: string, ...args: string[]): this {
    this.lines.push([`.${name}`, ...args].join(' '));
    return this;
  }

  /** Text already escaped (roffText, fonts), one or more lines. */
  text(escaped: string): this {
    for (const line of escaped.split('\n')) {
      const l = line.replace(/^[ \t]+/, '');
      // A line starting with . or ' would be a request; an empty one a blank line (a vertical space).
      this.lines.push(l === '' ? '\\&' : /^[.']/.test(l) ? `\\&${l}` : l);
    }
    return this;
  }

  /** Lines shown as they are (examples, code): no filling, leading spaces kept. */
  verbatim(text: string): this {
    this.macro('RS', '4').macro('nf');
    for (const line of text.replace(/\n$/, '').split('\n')) {
      const l = roffText(line);
      this.lines.push(l === '' ? '\\&' : `\\&${l}`);
    }
    return this.macro('fi').macro('RE');
  }

  toString(): string {
    return `${this.lines.join('\n')}\n`;
  }
}

export const bold = (escaped: string) => `\\fB${escaped}\\fR`;
export const italic = (escaped: string) => `\\fI${escaped}\\fR`;

/** Styled spans as roff text: code and strong in bold, emphasis in italics, a web link's address after it. */
export function roffSpans(spans: readonly Span[]): string {
  let out = '';
  spans.forEach((s, i) => {
    const t = roffText(s.text);
    out += s.code || s.strong ? bold(t) : s.em ? italic(t) : t;
    const href = s.href;
    if (href && spans[i + 1]?.href !== href && /^(https?|mailto):/i.test(href) && s.text.trim() !== href)
      out += ` <${roffText(href)}>`;
  });
  return out;
}

/** A docs/ page's blocks as man source (its level-1 heading is the caller's section heading). */
export function roffBlocks(roff: Roff, blocks: readonly Block[], first = true): void {
  let start = first;
  for (const b of blocks) {
    switch (b.kind) {
      case 'heading':
        if (b.depth > 1) roff.macro('SS', roffArg(b.spans.map((s) => s.text).join('')));
        start = true;
        continue;
      case 'paragraph':
        if (!start) roff.macro('PP');
        roff.text(roffSpans(b.spans));
        break;
      case 'code':
        roff.verbatim(b.text);
        break;
      case 'list':
        b.items.forEach((item, n) => {
          roff.macro('IP', b.ordered ? roffArg(`${b.start + n}.`) : '\\(bu', b.ordered ? '4' : '2');
          roffBlocks(roff, item, true);
        });
        roff.macro('PP');
        break;
      case 'table':
        // One entry per row: the first cell as the tag.
        for (const row of b.rows) {
          roff.macro('TP');
          roff.text(roffSpans(row[0] ?? []));
          // The second column as the entry's text; any further one on a line of its own, named by its column.
          let first = true;
          row.slice(1).forEach((cell, c) => {
            if (cell.length === 0 || cell.every((s) => s.text.trim() === '')) return;
            const name = b.header[c + 1]?.map((s) => s.text).join('') ?? '';
            if (!first) roff.macro('br');
            roff.text(c > 0 && name ? `${roffText(name)}: ${roffSpans(cell)}` : roffSpans(cell));
            first = false;
          });
        }
        roff.macro('PP');
        break;
      case 'quote':
        roff.macro('RS', '4');
        roffBlocks(roff, b.blocks, true);
        roff.macro('RE');
        break;
      case 'rule':
        break;
    }
    start = false;
  }
}
