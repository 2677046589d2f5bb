// Kept apart from the verb: the command tree imports it at start-up.
import type { Offer } from '../../core/output/offer.js';

export const MCP_CLIENTS = ['claude', 'vscode', 'cursor'] as const;
export type McpClient = (typeof MCP_CLIENTS)[number];

/** `mcp config` prints one JSON document, to paste. */
export const MCP_CONFIG_OFFER: Offer = { names: ['json'], default: 'json' };
