// The man pages, from the command tree (model.ts), as gh ships them: cssctl(1) with the global options, the
// commands, the help topics, EXIT STATUS and ENVIRONMENT (from docs/exit-codes.md and docs/environment.md,
// the pages `cssctl help` prints), and one page per command, `cssctl-findings-list(1)`. Written into dist/man/
// by `npm run build`; package.json `man` names them (`npm run docs` keeps that list; a test checks it).
import type { Block } from '../help/markdown.js';
import { allCommands, type CommandDoc, type OptionDoc, type Reference } from './model.js';
import { Roff, bold, italic, roffArg, roffBlocks, roffText } from './roff.js';

export interface ManOptions {
  /** For the pages' footer, `YYYY-MM-DD`. */
  date: string;
  /** The help topics, for cssctl(1). */
  topics: readonly { name: string; summary: string }[];
  /** Sections of cssctl(1) taken from docs/ pages, by title: EXIT STATUS, ENVIRONMENT. */
  sections: readonly { title: string; blocks: readonly Block[] }[];
}

/** The page's file name: `cssctl.1`, `cssctl-findings-list.1`. */
export function manName(cmd: Pick<CommandDoc, 'path'>): string {
  return `${['cssctl', ...cmd.path].join('-')}.1`;
}

const pageTitle = (cmd: CommandDoc) => ['cssctl', ...cmd.path].join('-');
const reference = (cmd: CommandDoc) => `${bold(roffText(pageTitle(cmd)))}(1)`;

/** Flags in bold, their values in italics: `-o, --output <format>`. */
function flagsText(flags: string): string {
  return flags
    .split(/(<[^>]*>|\[[^\]]*\])/)
    .map((part, i) => (i % 2 ? italic(roffText(part)) : part.replace(/[^\s,]+/g, (w) => bold(roffText(w)))))
    .join('');
}

/** A description as a sentence: its first letter capitalised, ending with a full stop. */
function sentence(text: string): string {
  const t = text.trim();
  if (t === '') return t;
  const s = t[0]!.toUpperCase() + t.slice(1);
  return /[.!?:]$/.test(s) ? s : `${s}.`;
}

function options(roff: Roff, list: readonly OptionDoc[]): void {
  for (const o of list) {
    roff.macro('TP');
    roff.text(flagsText(o.flags));
    const extra = [
      o.required ? 'Required.' : '',
      o.choices ? `One of: ${o.choices.join(', ')}.` : '',
      o.default !== undefined ? `Default: ${o.default}.` : '',
      o.env !== undefined ? `Environment: ${o.env}.` : '',
    ].filter(Boolean);
    roff.text(roffText([sentence(o.description), ...extra].join(' ')));
  }
}

function head(roff: Roff, cmd: CommandDoc, ref: Reference, opts: ManOptions): void {
  roff.macro('\\"', 'Generated from the command tree by npm run build (src/reference/man.ts): do not edit.');
  roff.macro(
    'TH',
    roffArg(pageTitle(cmd).toUpperCase()),
    '1',
    roffArg(opts.date),
    roffArg(`cssctl ${ref.version}`),
    roffArg('cssctl manual'),
  );
  // No hyphenation and a ragged right edge: flags and paths stay whole and copyable.
  roff.macro('nh').macro('ad', 'l');
  roff.macro('SH', 'NAME');
  roff.text(`${roffText(pageTitle(cmd))} \\- ${roffText(cmd.description.split('\n')[0] ?? '')}`);
  roff.macro('SH', 'SYNOPSIS');
  const name = cmd.name;
  roff.text(
    `${bold(roffText(name))}${roffText(cmd.usage.slice(cmd.usage.startsWith(name) ? name.length : 0))}`,
  );
}

function commandsList(roff: Roff, cmd: CommandDoc): void {
  for (const c of cmd.commands) {
    roff.macro('TP');
    roff.text(bold(roffText(c.name)));
    roff.text(`${roffText(sentence(c.description.split('\n')[0] ?? ''))} See ${reference(c)}.`);
  }
}

function examples(roff: Roff, cmd: CommandDoc): void {
  if (!cmd.examples.length) return;
  roff.macro('SH', 'EXAMPLES');
  roff.verbatim(cmd.examples.map((e) => `$ ${e}`).join('\n'));
}

function rootPage(ref: Reference, opts: ManOptions): string {
  const root = ref.root;
  const roff = new Roff();
  head(roff, root, ref, opts);
  roff.macro('SH', 'DESCRIPTION');
  roff.text(roffText(sentence(root.description)));
  roff.macro('PP');
  roff.text(
    `${roffText('Global options are accepted before or after the command. Every command prints its usage, options and examples with ')}${bold('\\-\\-help')}${roffText(' (or ')}${bold('cssctl help')} ${italic('command')}${roffText('); each has a page of its own, listed under COMMANDS.')}`,
  );
  roff.macro('SH', 'OPTIONS');
  options(roff, root.options);
  roff.macro('SH', 'COMMANDS');
  commandsList(roff, root);
  if (opts.topics.length) {
    roff.macro('SH', 'HELP TOPICS');
    roff.text(`${roffText('Longer topics, printed by ')}${bold('cssctl help')} ${italic('topic')}:`);
    for (const t of opts.topics) {
      roff.macro('TP');
      roff.text(bold(roffText(t.name)));
      roff.text(roffText(sentence(t.summary)));
    }
  }
  for (const s of opts.sections) {
    roff.macro('SH', roffArg(s.title));
    // The page's own title (level 1) is this section's heading.
    roffBlocks(
      roff,
      s.blocks.filter((b) => !(b.kind === 'heading' && b.depth === 1)),
    );
  }
  examples(roff, root);
  roff.macro('SH', roffArg('SEE ALSO'));
  roff.text(root.commands.map(reference).join(', '));
  return roff.toString();
}

function commandPage(cmd: CommandDoc, parent: CommandDoc, ref: Reference, opts: ManOptions): string {
  const roff = new Roff();
  head(roff, cmd, ref, opts);
  roff.macro('SH', 'DESCRIPTION');
  roff.text(roffText(sentence(cmd.description)));
  // The synopsis names every argument; those that say something more are listed.
  const described = cmd.arguments.filter((a) => a.description || a.choices);
  if (described.length) {
    roff.macro('SH', 'ARGUMENTS');
    for (const a of described) {
      roff.macro('TP');
      roff.text(italic(roffText(a.usage)));
      const text = [
        a.description ? sentence(a.description) : '',
        a.choices ? `One of: ${a.choices.join(', ')}.` : '',
      ]
        .filter(Boolean)
        .join(' ');
      roff.text(roffText(text));
    }
  }
  if (cmd.options.length) {
    roff.macro('SH', 'OPTIONS');
    options(roff, cmd.options);
  }
  if (cmd.formats.length) {
    roff.macro('SH', roffArg('OUTPUT FORMATS'));
    roff.text(
      `${bold('\\-o')} ${cmd.formats.map((f) => italic(roffText(f))).join(', ')}${roffText(' (see cssctl help formats).')}`,
    );
  }
  if (cmd.commands.length) {
    roff.macro('SH', 'COMMANDS');
    commandsList(roff, cmd);
  }
  roff.macro('SH', roffArg('GLOBAL OPTIONS'));
  roff.text(
    `${roffText('Accepted as well, before or after the command (see ')}${bold('cssctl')}(1)): ${ref.root.options
      .map((o) => flagsText(o.flags))
      .join('; ')}.`,
  );
  examples(roff, cmd);
  roff.macro('SH', roffArg('SEE ALSO'));
  const related = [parent, ...cmd.commands].map(reference);
  if (parent !== ref.root) related.unshift(reference(ref.root));
  roff.text(related.join(', '));
  return roff.toString();
}

/** Every page, by file name. */
export function manPages(ref: Reference, opts: ManOptions): Map<string, string> {
  const pages = new Map<string, string>([[manName(ref.root), rootPage(ref, opts)]]);
  const parentOf = new Map<CommandDoc, CommandDoc>();
  for (const c of allCommands(ref.root)) for (const s of c.commands) parentOf.set(s, c);
  for (const c of allCommands(ref.root).slice(1))
    pages.set(manName(c), commandPage(c, parentOf.get(c)!, ref, opts));
  return pages;
}
