// `cssctl mcp config [--client claude|vscode|cursor] [--allow-write]` (cli-contract.md §13): the JSON block that
// registers this cssctl as an MCP server, in the client's own format, to paste. It names no secret (a token in
// a client's settings file would be one more copy to leak) and writes no file of another program.
import { resolve } from 'node:path';
import type { Context } from '../../core/context.js';
import { selfCommand, type SelfCommand } from '../../core/self.js';
import { normalizeBaseUrl } from '../../core/url.js';
import { TOOL_NAMES, selectedNames } from './toolsets.js';
import { after, type Result } from '../../report/result.js';
import type { OptionsOf, WithOwnDefaults } from '../shared/define.js';
import type { McpClient } from './clients.js';
import type { configCommand } from './config.command.js';

/**
 * What `mcp config` takes (config.command.ts); `self`: how this cssctl is started (tests; default: this process's
 * own command). --toolsets and --tools are passed on to the server (checked here first: exit 2).
 */
export type McpConfigOptions = WithOwnDefaults<OptionsOf<typeof configCommand>, 'client'> & {
  self?: SelfCommand;
};

/**
 * Settings a server started by a desktop client would not otherwise have (it does not inherit the shell's
 * environment): where the configuration and the credentials live, the service and workspace when the environment
 * is what names them, and the ignore file (a desktop client may start the server in any folder). Never
 * CSSCTL_TOKEN, CSSCTL_PASSWORD or CSSCTL_WEBHOOK_SECRET.
 */
const PASSED_ON = [
  'CSSCTL_CONFIG_DIR',
  'CSSCTL_CREDENTIAL_STORE',
  'CSSCTL_BASE_URL',
  'CSSCTL_WORKSPACE',
  'CSSCTL_IGNORE_FILE',
];
/** Paths, made absolute: the client starts the server in a folder of its own choosing. */
const PATHS = new Set(['CSSCTL_CONFIG_DIR', 'CSSCTL_IGNORE_FILE']);

/** Where each client reads its servers from (the hint after the block). */
const WHERE: Record<McpClient, string> = {
  claude:
    "Paste it into Claude Desktop's claude_desktop_config.json (Settings → Developer → Edit Config) and restart it; for Claude Code, into .mcp.json at the root of your project",
  vscode:
    'Paste it into .vscode/mcp.json in your workspace (or the file "MCP: Open User Configuration" opens), then start the server from the MCP view',
  cursor: 'Paste it into ~/.cursor/mcp.json (every project) or .cursor/mcp.json (one project)',
};

export async function config(ctx: Context, opts: McpConfigOptions): Promise<Result> {
  const client = opts.client ?? 'claude';
  const profile = ctx.globals.profile ?? (ctx.env.CSSCTL_PROFILE || undefined);
  // A profile that does not exist would make every tool call fail: exit 2 now, naming it.
  if (profile !== undefined) ctx.requireProfile();
  // Names the server would refuse: exit 2 now, naming them, rather than a server that never starts.
  selectedNames(opts, TOOL_NAMES);
  // A base URL carrying credentials or a query is refused as every command refuses it: never into a client's file.
  if (ctx.env.CSSCTL_BASE_URL) normalizeBaseUrl(ctx.env.CSSCTL_BASE_URL);
  const self = opts.self ?? selfCommand();
  const args = [
    ...self.args,
    'mcp',
    ...(profile !== undefined ? ['--profile', ctx.profileName] : []),
    ...(opts.allowWrite ? ['--allow-write'] : []),
    ...(opts.toolsets !== undefined ? ['--toolsets', opts.toolsets] : []),
    ...(opts.tools !== undefined ? ['--tools', opts.tools] : []),
  ];
  const env: Record<string, string> = {};
  for (const name of PASSED_ON) {
    const value = ctx.env[name];
    if (value)
      env[name] =
        name === 'CSSCTL_CONFIG_DIR' ? resolve(ctx.configDir) : PATHS.has(name) ? resolve(value) : value;
  }
  const server = {
    ...(client === 'vscode' ? { type: 'stdio' } : {}),
    command: self.command,
    args,
    ...(Object.keys(env).length > 0 ? { env } : {}),
  };
  const value = client === 'vscode' ? { servers: { cssctl: server } } : { mcpServers: { cssctl: server } };
  return {
    output: { kind: 'value', value, format: 'json' },
    ...after(() => ctx.io.hint(`${WHERE[client]}.`)),
  };
}
