// `cssctl help <topic>`: a docs/ page rendered for the terminal. Bundled apart as dist/help-topics.cjs with the
// pages' text inlined at build time (scripts/build.mjs), so only `help <topic>` reads them: no other command
// loads a byte of this. Run from the sources (tests), it reads the pages from docs/.
import { readFileSync } from 'node:fs';
import { parseMarkdown } from './markdown.js';
import { renderTerminal, type RenderOptions } from './terminal.js';
import { helpTopic } from './topics.js';

declare const __CSSCTL_HELP_PAGES__: Record<string, string> | undefined;

/** The Markdown of a topic's page. */
export function topicSource(name: string): string {
  const topic = helpTopic(name);
  if (!topic) throw new Error(`no help topic ${name}`);
  if (typeof __CSSCTL_HELP_PAGES__ === 'object') {
    const text = __CSSCTL_HELP_PAGES__[name];
    if (text === undefined) throw new Error(`help topic ${name} was not bundled`);
    return text;
  }
  return readFileSync(new URL(`../../${topic.page}`, import.meta.url), 'utf8');
}

export function renderTopic(name: string, opts: RenderOptions): string {
  return renderTerminal(parseMarkdown(topicSource(name)), opts);
}
