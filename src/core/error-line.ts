// The one line an error is reported in (cli-contract.md §3): `error: <detail>` with the service's status, code,
// field and request id where it gave them, its field errors, and a hint of what to do. The terminal prints it
// on stderr (src/cli.ts reportError, coloured); the MCP server returns it as a tool error's text — one wording.
import { ApiError, CliError } from './errors.js';
import { terminalText } from './terminal-text.js';

/** Colours for the terminal; none elsewhere. */
export interface ErrorLineStyle {
  red(text: string): string;
  dim(text: string): string;
}

const plain: ErrorLineStyle = { red: (t) => t, dim: (t) => t };

/** The error's ApiError: itself, or the one it was caused by (a refused refresh, say). */
export function apiErrorOf(err: unknown): ApiError | undefined {
  if (err instanceof ApiError) return err;
  return err instanceof Error && err.cause instanceof ApiError ? err.cause : undefined;
}

/** `error: not found (HTTP 404, code not_found) (run cssctl login)`. Text from the service cannot drive a terminal. */
export function errorLine(
  err: unknown,
  style: ErrorLineStyle = plain,
  opts: { neutral?: boolean } = {},
): string {
  const e = err instanceof Error ? err : new Error(String(err));
  // The MCP server's wording: no value from the service that the terminal's line quotes, and what to do in it
  // (CliError.neutral; the terminal's hint may name a flag).
  if (opts.neutral && e instanceof CliError && e.neutral !== undefined)
    return `${style.red('error:')} ${terminalText(e.neutral)}`;
  const api = apiErrorOf(e);
  const extras: string[] = [];
  if (api) {
    // A default detail ("service error (HTTP 502)") names the status already: once is enough.
    if (!e.message.includes(`HTTP ${api.status}`)) extras.push(`HTTP ${api.status}`);
    if (api.code) extras.push(`code ${api.code}`);
    if (api.field) extras.push(`field ${api.field}`);
    if (api.requestId) extras.push(`request ${api.requestId}`);
  }
  // Field errors are listed by name; when the detail only strings them together, they replace it.
  const fields = api?.fieldErrors ?? [];
  const list = fields.map((f) => (f.field ? `${f.field}: ${f.detail}` : f.detail)).join('; ');
  const detailIsList =
    api !== undefined && fields.length > 0 && fields.every((f) => api.detail.includes(f.detail));
  let line = `${style.red('error:')} ${terminalText(detailIsList ? list : e.message)}`;
  if (extras.length > 0 && e instanceof ApiError) line += ` (${terminalText(extras.join(', '))})`;
  if (fields.length > 0 && !detailIsList) line += ` — ${terminalText(list)}`;
  const hint = e instanceof CliError ? e.hint : undefined;
  if (hint) line += style.dim(` (${hint})`);
  return line;
}
