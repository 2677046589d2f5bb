// `cssctl help <topic>`: the longer pages a user looks up at a terminal, printed from docs/ (the same pages the
// repository shows). Only the names live here, so the root help and completion can list them: the pages
// themselves are bundled apart (dist/help-topics.cjs, scripts/build.mjs) and read only by `help <topic>`.

export interface HelpTopic {
  /** The word after `cssctl help`. */
  name: string;
  /** The page it prints, from the repository's root. */
  page: string;
  /** One line for the root help and completion. */
  summary: string;
}

export const HELP_TOPICS: readonly HelpTopic[] = [
  {
    name: 'exit-codes',
    page: 'docs/exit-codes.md',
    summary: 'what each exit code means, and what to do about it',
  },
  { name: 'environment', page: 'docs/environment.md', summary: 'the environment variables cssctl reads' },
  {
    name: 'formats',
    page: 'docs/formats.md',
    summary: 'output formats (-o), columns, --output-file and --report',
  },
  {
    name: 'ignore-file',
    page: 'docs/ignore-file.md',
    summary: '.cssctl-ignore.yaml: accepted risks, with a reason and an expiry',
  },
  {
    name: 'ocsf',
    page: 'docs/ocsf.md',
    summary: '-o ocsf: findings as OCSF Detection Findings for a security lake or SIEM',
  },
  { name: 'csv', page: 'docs/csv.md', summary: '-o csv and --columns: any field, dotted paths, or all' },
];

export function helpTopic(name: string): HelpTopic | undefined {
  return HELP_TOPICS.find((t) => t.name === name);
}

/** The root help's list of topics (before its examples; commander ends it with a newline). */
export function topicsHelpText(): string {
  const width = Math.max(...HELP_TOPICS.map((t) => t.name.length));
  const lines = HELP_TOPICS.map((t) => `  ${t.name.padEnd(width)}  ${t.summary}`);
  return `\nHelp topics (cssctl help <topic>):\n${lines.join('\n')}`;
}
