// What `npm run build` and `npm run docs` generate from the command tree (scripts/gen-docs.mjs bundles this
// module and hands it the program of the built CLI; tests hand it the program of the sources).
import type { Command } from 'commander';
import { parseMarkdown } from '../help/markdown.js';
import { HELP_TOPICS } from '../help/topics.js';
import { manName, manPages } from './man.js';
import { referenceMarkdown } from './markdown.js';
import { allCommands, readReference } from './model.js';

export { HELP_TOPICS };

/** docs/commands.md. */
export function commandsMarkdown(program: Command): string {
  return referenceMarkdown(readReference(program), HELP_TOPICS);
}

/** The man pages' file names, cssctl.1 first: package.json `man` lists them under dist/man/. */
export function manFiles(program: Command): string[] {
  return allCommands(readReference(program).root).map(manName);
}

/** The docs/ pages of cssctl(1)'s EXIT STATUS and ENVIRONMENT. */
export const MAN_SECTIONS = [
  { title: 'EXIT STATUS', topic: 'exit-codes' },
  { title: 'ENVIRONMENT', topic: 'environment' },
] as const;

/**
 * Every man page by file name. `readPage` gives a docs/ page's Markdown by its path from the repository's
 * root; `date` is the pages' date (YYYY-MM-DD).
 */
export function manualPages(
  program: Command,
  readPage: (page: string) => string,
  date: string,
): Map<string, string> {
  const sections = MAN_SECTIONS.map(({ title, topic }) => ({
    title,
    blocks: parseMarkdown(readPage(HELP_TOPICS.find((t) => t.name === topic)!.page)),
  }));
  return manPages(readReference(program), { date, topics: HELP_TOPICS, sections });
}
