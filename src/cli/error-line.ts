// The one line an error is reported in (cli-contract.md §3): `error: <detail>` plus the HTTP status, code, field
// and request id where the service gave them, the field errors, and a hint where one helps. The terminal prints
// it on stderr (reportError in src/cli.ts); the GitHub Action makes it the step's `::error::` (src/action/).
import type { ChalkInstance } from 'chalk';
import { ApiError, CliError } from '../core/errors.js';
import { terminalText } from '../core/terminal-text.js';

/** The error's line, without its line end; `color` paints `error:` and the hint (none when its level is 0). */
export function errorLine(err: unknown, color: ChalkInstance): string {
  const e = err instanceof Error ? err : new Error(String(err));
  const api = e instanceof ApiError ? e : e.cause instanceof ApiError ? e.cause : undefined;
  const extras: string[] = [];
  if (api) {
    // A default detail ("service error (HTTP 502)") names the status already: once is enough.
    if (!e.message.includes(`HTTP ${api.status}`)) extras.push(`HTTP ${api.status}`);
    if (api.code) extras.push(`code ${api.code}`);
    if (api.field) extras.push(`field ${api.field}`);
    if (api.requestId) extras.push(`request ${api.requestId}`);
  }
  // Text from the service must not drive the terminal: control characters become spaces.
  // Field errors are listed by name; when the detail only strings them together, they replace it.
  const fields = api?.fieldErrors ?? [];
  const list = fields.map((f) => (f.field ? `${f.field}: ${f.detail}` : f.detail)).join('; ');
  const detailIsList =
    api !== undefined && fields.length > 0 && fields.every((f) => api.detail.includes(f.detail));
  let line = `${color.red('error:')} ${terminalText(detailIsList ? list : e.message)}`;
  if (extras.length > 0 && e instanceof ApiError) line += ` (${terminalText(extras.join(', '))})`;
  if (fields.length > 0 && !detailIsList) line += ` — ${terminalText(list)}`;
  const hint = e instanceof CliError ? e.hint : undefined;
  if (hint) line += color.dim(` (${hint})`);
  return line;
}
