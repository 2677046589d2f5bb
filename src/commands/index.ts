import type { Command } from 'commander';
import type { Wire } from './shared/action.js';
import { registerAuth } from './auth/index.js';
import { registerConfig } from './config/index.js';
import { registerConnections } from './connections/index.js';
import { registerApi } from './api/index.js';
import { registerFindings } from './findings/index.js';
import { registerScans } from './scans/index.js';
import { registerWebhooks } from './webhooks/index.js';
import { registerCompliance } from './compliance/index.js';
import { registerVersion } from './version/index.js';
import { registerDoctor } from './doctor/index.js';
import { registerMcp } from './mcp/index.js';

type Register = (program: Command, wire: Wire) => void;

/** Each registrar with the top-level words it adds to the tree. */
const REGISTRARS: [words: string[], register: Register][] = [
  [['login', 'logout', 'auth'], registerAuth],
  [['connections'], registerConnections],
  [['scans'], registerScans],
  [['findings'], registerFindings],
  [['compliance'], registerCompliance],
  [['webhooks'], registerWebhooks],
  [['api'], registerApi],
  [['config'], registerConfig],
  [['mcp'], registerMcp],
  [['version'], registerVersion],
  [['doctor'], registerDoctor],
];

/**
 * The command tree. Each noun registers its verbs; each verb's code loads only when it runs. Given the
 * command word of argv, only the registrar that adds that word runs (when one does): parsing needs no other.
 */
export function registerCommands(program: Command, wire: Wire, word?: string): void {
  const one = REGISTRARS.find(([words]) => word !== undefined && words.includes(word));
  for (const entry of one ? [one] : REGISTRARS) entry[1](program, wire);
}
