// `cssctl mcp --toolsets <set>[,...]` and `--tools <name>[,...]` (cli-contract.md §13): an assistant's context is
// small, and every tool listed takes some of it. A set names tools by what they are about; --tools names them
// one by one; given both, a tool in either is offered. Write tools still need --allow-write. Here, below the
// server (src/mcp/), so that `mcp config` checks the names it passes on.
import { UsageError } from '../../core/errors.js';

export const TOOLSETS = {
  account: ['auth_status', 'list_connections', 'compliance_score'],
  scans: ['list_scans', 'get_scan', 'wait_scan', 'create_scan'],
  findings: ['list_findings', 'get_finding', 'summarize_findings', 'diff_findings', 'ignore_finding'],
} as const;

export type Toolset = keyof typeof TOOLSETS;
/** Every tool of the server, each in one set (a test checks them against src/mcp/tools.ts). */
export const TOOL_NAMES: readonly string[] = Object.values(TOOLSETS).flat();
export const TOOLSET_NAMES = Object.keys(TOOLSETS) as Toolset[];

export interface Selection {
  /** --toolsets, as given (comma-separated); undefined: every set. */
  toolsets?: string;
  /** --tools, as given (comma-separated). */
  tools?: string;
}

/** A comma-separated list of names: each trimmed, none empty, each one of `valid` (exit 2 naming them). */
export function namesOf(raw: string, flag: string, valid: readonly string[]): string[] {
  const names = raw.split(',').map((n) => n.trim());
  if (names.some((n) => n === ''))
    throw new UsageError(`${flag} takes names separated by commas, none empty: ${valid.join(', ')}`);
  for (const n of names)
    if (!valid.includes(n)) throw new UsageError(`${flag}: "${n}" is not one of ${valid.join(', ')}`);
  return [...new Set(names)];
}

/** Checks --toolsets and --tools (exit 2), before the server starts: the names they give, or undefined for all. */
export function selectedNames(sel: Selection, all: readonly string[]): Set<string> | undefined {
  if (sel.toolsets === undefined && sel.tools === undefined) return undefined;
  const chosen = new Set<string>();
  if (sel.toolsets !== undefined)
    for (const set of namesOf(sel.toolsets, '--toolsets', TOOLSET_NAMES))
      for (const name of TOOLSETS[set as Toolset]) chosen.add(name);
  if (sel.tools !== undefined) for (const name of namesOf(sel.tools, '--tools', all)) chosen.add(name);
  return chosen;
}

/** The tools --toolsets and --tools leave in, in their own order. */
export function selectTools<T extends { name: string }>(tools: readonly T[], sel: Selection): T[] {
  const names = selectedNames(
    sel,
    tools.map((t) => t.name),
  );
  return names === undefined ? [...tools] : tools.filter((t) => names.has(t.name));
}
