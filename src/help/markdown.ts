// A docs/ page as blocks of styled text: what the terminal renderer (`cssctl help <topic>`, terminal.ts), the
// man pages (src/reference/man.ts) and the link check (test/unit/doc-links.test.ts) read. Parsed by marked
// (GitHub-flavoured Markdown, as the repository shows the pages); only the shapes the pages use are kept.
import { marked, type Token, type Tokens } from 'marked';

/** A run of text with one style. */
export interface Span {
  text: string;
  code?: boolean;
  strong?: boolean;
  em?: boolean;
  /** The link it belongs to. */
  href?: string;
}

export type Block =
  | { kind: 'heading'; depth: number; spans: Span[] }
  | { kind: 'paragraph'; spans: Span[] }
  | { kind: 'list'; ordered: boolean; start: number; items: Block[][] }
  | { kind: 'code'; text: string; lang?: string }
  | { kind: 'table'; header: Span[][]; rows: Span[][][] }
  | { kind: 'quote'; blocks: Block[] }
  | { kind: 'rule' };

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

/** marked leaves named entities in text as they are written. */
function decode(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (all, e: string) => {
    if (e[0] === '#')
      return String.fromCodePoint(
        e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : Number(e.slice(1)),
      );
    return ENTITIES[e.toLowerCase()] ?? all;
  });
}

function spans(tokens: Token[] | undefined, style: Omit<Span, 'text'> = {}): Span[] {
  const out: Span[] = [];
  for (const t of tokens ?? []) {
    switch (t.type) {
      case 'text':
        if ('tokens' in t && t.tokens?.length) out.push(...spans(t.tokens, style));
        else out.push({ ...style, text: t.escaped ? t.text : decode(t.text) });
        break;
      case 'escape':
        out.push({ ...style, text: t.text });
        break;
      case 'codespan':
        out.push({ ...style, code: true, text: t.text });
        break;
      case 'strong':
        out.push(...spans(t.tokens, { ...style, strong: true }));
        break;
      case 'em':
        out.push(...spans(t.tokens, { ...style, em: true }));
        break;
      case 'del':
        out.push(...spans(t.tokens, style));
        break;
      case 'link':
        out.push(...spans(t.tokens, { ...style, href: (t as Tokens.Link).href }));
        break;
      case 'image':
        out.push({ ...style, text: (t as Tokens.Image).text, href: (t as Tokens.Image).href });
        break;
      case 'br':
        out.push({ ...style, text: '\n' });
        break;
      case 'html':
        break; // comments and tags: nothing a reader sees
      default:
        if ('text' in t && typeof t.text === 'string') out.push({ ...style, text: decode(t.text) });
    }
  }
  return merge(out);
}

/** Neighbouring spans of one style become one. */
function merge(list: Span[]): Span[] {
  const out: Span[] = [];
  for (const s of list) {
    const last = out[out.length - 1];
    if (last && last.code === s.code && last.strong === s.strong && last.em === s.em && last.href === s.href)
      last.text += s.text;
    else if (s.text !== '') out.push({ ...s });
  }
  return out;
}

function blocks(tokens: Token[]): Block[] {
  const out: Block[] = [];
  for (const t of tokens) {
    switch (t.type) {
      case 'heading':
        out.push({ kind: 'heading', depth: t.depth, spans: spans(t.tokens) });
        break;
      case 'paragraph':
        out.push({ kind: 'paragraph', spans: spans(t.tokens) });
        break;
      case 'text':
        // A tight list item's text.
        out.push({
          kind: 'paragraph',
          spans: spans(t.tokens ?? [{ type: 'text', raw: t.raw, text: t.text }]),
        });
        break;
      case 'list': {
        const list = t as Tokens.List;
        out.push({
          kind: 'list',
          ordered: list.ordered,
          start: typeof list.start === 'number' ? list.start : 1,
          items: list.items.map((item) => blocks(item.tokens)),
        });
        break;
      }
      case 'code':
        out.push({ kind: 'code', text: t.text, ...(t.lang ? { lang: t.lang } : {}) });
        break;
      case 'table': {
        const table = t as Tokens.Table;
        out.push({
          kind: 'table',
          header: table.header.map((c) => spans(c.tokens)),
          rows: table.rows.map((r) => r.map((c) => spans(c.tokens))),
        });
        break;
      }
      case 'blockquote':
        out.push({ kind: 'quote', blocks: blocks(t.tokens ?? []) });
        break;
      case 'hr':
        out.push({ kind: 'rule' });
        break;
      default:
        break; // space, html, link definitions
    }
  }
  return out;
}

export function parseMarkdown(text: string): Block[] {
  return blocks(marked.lexer(text, { gfm: true }));
}

/** The plain text of some spans. */
export function plain(list: readonly Span[]): string {
  return list.map((s) => s.text).join('');
}

/**
 * The anchor GitHub gives a heading: lower case, punctuation and symbols dropped, spaces as hyphens (as
 * github-slugger does); `seen` numbers the repeats (`-1`, `-2`) when given.
 */
export function slug(heading: string, seen?: Map<string, number>): string {
  const base = heading
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
  if (!seen) return base;
  const n = seen.get(base);
  seen.set(base, (n ?? -1) + 1);
  return n === undefined ? base : `${base}-${n + 1}`;
}

/** Every anchor of a page: its headings' slugs, repeats numbered. */
export function anchors(blocks: readonly Block[]): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  const walk = (list: readonly Block[]) => {
    for (const b of list) {
      if (b.kind === 'heading') out.add(slug(plain(b.spans), seen));
      else if (b.kind === 'list') b.items.forEach(walk);
      else if (b.kind === 'quote') walk(b.blocks);
    }
  };
  walk(blocks);
  return out;
}

/** Every link target of a page, with the text that carries it. */
export function links(blocks: readonly Block[]): { href: string; text: string }[] {
  const out: { href: string; text: string }[] = [];
  const fromSpans = (list: readonly Span[]) => {
    for (let i = 0; i < list.length; i++) {
      const href = list[i]!.href;
      if (href === undefined || list[i - 1]?.href === href) continue;
      let text = '';
      for (let j = i; j < list.length && list[j]!.href === href; j++) text += list[j]!.text;
      out.push({ href, text });
    }
  };
  const walk = (list: readonly Block[]) => {
    for (const b of list) {
      if (b.kind === 'heading' || b.kind === 'paragraph') fromSpans(b.spans);
      else if (b.kind === 'list') b.items.forEach(walk);
      else if (b.kind === 'quote') walk(b.blocks);
      else if (b.kind === 'table') [b.header, ...b.rows].flat().forEach(fromSpans);
    }
  };
  walk(blocks);
  return out;
}
