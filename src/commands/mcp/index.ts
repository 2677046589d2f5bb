import type { Command } from 'commander';
import type { Wire } from '../shared/action.js';
import { addCommand, addVerb } from '../shared/define.js';
import { MCP_CONFIG_OFFER } from './clients.js';
import { configCommand } from './config.command.js';
import { mcpCommand } from './mcp.command.js';

/** `cssctl mcp` (the MCP server over stdio: src/mcp/) and `cssctl mcp config`, cli-contract.md §13. */
export function registerMcp(program: Command, wire: Wire): void {
  const mcp = addCommand(program, mcpCommand).action(wire.frontEnd('mcp'));
  addVerb(mcp, configCommand, wire, async () => (await import('./config.js')).config, MCP_CONFIG_OFFER);
}
