import { Option, type Command } from 'commander';
import { completeWith } from '../../completion/meta.js';
import type { Wire } from '../shared/action.js';
import { MCP_CLIENTS, MCP_CONFIG_OFFER } from './clients.js';
import { TOOLSET_NAMES } from './toolsets.js';
import type { McpConfigOptions } from './config.js';

/** `cssctl mcp` (the MCP server over stdio: src/mcp/) and `cssctl mcp config`, cli-contract.md §13. */
export function registerMcp(program: Command, wire: Wire): void {
  const mcp = program
    .command('mcp')
    .description(
      'serve the Model Context Protocol over stdio, for AI assistants (read-only unless --allow-write)',
    )
    .option('--allow-write', 'also offer the tools that change something: create_scan and ignore_finding')
    .option(
      '--toolsets <sets>',
      `offer only the tools of these sets, separated by commas: ${TOOLSET_NAMES.join(', ')}`,
    )
    .option('--tools <names>', 'offer only these tools (and those of --toolsets), separated by commas')
    .action(wire.frontEnd('mcp'));
  const config = mcp
    .command('config')
    .description("print the JSON that registers this cssctl as an MCP server in a client's settings")
    .addOption(
      new Option('--client <client>', 'the client whose format to print')
        .choices(MCP_CLIENTS)
        .default('claude'),
    )
    .option('--allow-write', 'register the server with --allow-write')
    .option('--toolsets <sets>', 'register the server with --toolsets')
    .option('--tools <names>', 'register the server with --tools')
    .action(
      wire(async () => {
        const { config: verb } = await import('./config.js');
        // Commander gives `mcp config --allow-write` to `mcp`, which has the flag too (global options are read
        // after the command as well as before it): the flag given either way is config's.
        return (ctx, opts: McpConfigOptions) =>
          verb(ctx, {
            ...opts,
            allowWrite: opts.allowWrite || mcp.opts<{ allowWrite?: boolean }>().allowWrite,
            toolsets: opts.toolsets ?? mcp.opts<{ toolsets?: string }>().toolsets,
            tools: opts.tools ?? mcp.opts<{ tools?: string }>().tools,
          });
      }, MCP_CONFIG_OFFER),
    );
  completeWith(config, { outputs: MCP_CONFIG_OFFER.names });
}
