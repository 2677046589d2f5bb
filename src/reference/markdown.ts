// docs/commands.md from the command tree (model.ts). Written by `npm run docs`; a test fails when the committed
// page and the tree part ways (test/unit/reference.test.ts).
import { slug } from '../help/markdown.js';
import type { HelpTopic } from '../help/topics.js';
import { allCommands, type CommandDoc, type OptionDoc, type Reference } from './model.js';

/** Text for a Markdown table cell or paragraph: what GitHub would read as markup is escaped. */
export function mdText(text: string): string {
  return text
    .replace(/[\\`*_[\]|<>]/g, (c) => `\\${c}`)
    .replace(/&/g, '&amp;')
    .replace(/\s*\n\s*/g, ' ');
}

/** A code span that survives a table cell (GitHub splits cells at `|` before reading code spans). */
export function mdCode(text: string): string {
  const fence = '`'.repeat(Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length)) + 1);
  const body = text.replace(/\|/g, '\\|');
  const pad = body.startsWith('`') || body.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${body}${pad}${fence}`;
}

const heading = (cmd: CommandDoc) => `\`${cmd.name}\``;
const anchor = (cmd: CommandDoc) => slug(heading(cmd));

function optionsTable(options: readonly OptionDoc[]): string[] {
  const rows = options.map((o) => {
    let description = mdText(o.description);
    if (o.choices) description += ` (one of: ${o.choices.map(mdCode).join(', ')})`;
    const flags = `${mdCode(o.flags)}${o.required ? ' (required)' : ''}`;
    // A value as code; a default told in words (`.cssctl-ignore.yaml here or in a parent folder`) as text.
    const def = o.default === undefined ? '' : /\s/.test(o.default) ? mdText(o.default) : mdCode(o.default);
    return `| ${flags} | ${description} | ${def} | ${o.env !== undefined ? mdCode(o.env) : ''} |`;
  });
  return ['| option | description | default | env |', '|---|---|---|---|', ...rows];
}

function section(cmd: CommandDoc): string[] {
  const depth = Math.min(6, cmd.path.length + 1);
  const out = [
    `${'#'.repeat(depth)} ${heading(cmd)}`,
    '',
    mdText(cmd.description),
    '',
    '```',
    cmd.usage,
    '```',
  ];
  if (cmd.arguments.length) {
    out.push('', '| argument | description |', '|---|---|');
    for (const a of cmd.arguments) {
      let description = mdText(a.description);
      if (a.choices) description += `${description ? ' ' : ''}(one of: ${a.choices.map(mdCode).join(', ')})`;
      out.push(`| ${mdCode(a.usage)} | ${description} |`);
    }
  }
  if (cmd.options.length) out.push('', ...optionsTable(cmd.options));
  if (cmd.formats.length) out.push('', `Output (\`-o\`): ${cmd.formats.map(mdCode).join(', ')}.`);
  if (cmd.commands.length) {
    out.push('', '| command | description |', '|---|---|');
    for (const c of cmd.commands)
      out.push(`| [${mdCode(c.name)}](#${anchor(c)}) | ${mdText(c.description)} |`);
  }
  if (cmd.examples.length) out.push('', 'Examples:', '', '```sh', ...cmd.examples, '```');
  return out;
}

function contents(cmd: CommandDoc, depth: number): string[] {
  const line = `${'  '.repeat(depth)}- [${heading(cmd)}](#${anchor(cmd)}) — ${mdText(firstLine(cmd.description))}`;
  return [line, ...cmd.commands.flatMap((c) => contents(c, depth + 1))];
}

const firstLine = (text: string) => text.split('\n')[0] ?? '';

export function referenceMarkdown(ref: Reference, topics: readonly HelpTopic[]): string {
  const root = ref.root;
  const topicLinks = topics.map((t) => `[${t.name}](${t.page.replace(/^docs\//, '')})`).join(', ');
  const out = [
    '# Command reference',
    '',
    '<!-- Generated from the command tree by `npm run docs` (src/reference/): do not edit this page, change the',
    '     commands. A test fails when the two part ways. -->',
    '',
    'Every command of cssctl, with its usage line, its options (with their defaults and environment variables)',
    'and its examples: what `cssctl <command> --help` prints, generated from the same command tree. Once cssctl',
    'is installed, the same reference is in its man pages: `man cssctl`, and one page per command',
    '(`man cssctl-scans-wait`). Longer topics are printed by `cssctl help <topic>`: ' + `${topicLinks}.`,
    '',
    '- [Global options](#global-options)',
    ...root.commands.flatMap((c) => contents(c, 0)),
    '',
    '## Global options',
    '',
    'Accepted before or after any command:',
    '',
    '```',
    root.usage,
    '```',
    '',
    ...optionsTable(root.options),
  ];
  if (root.examples.length) out.push('', 'Examples:', '', '```sh', ...root.examples, '```');
  for (const cmd of allCommands(root).slice(1)) out.push('', ...section(cmd));
  return `${out.join('\n')}\n`;
}
