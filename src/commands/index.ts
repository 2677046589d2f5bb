import type { Command } from 'commander';
import type { MakeContext } from './shared/action.js';
import { registerAuth } from './auth/index.js';
import { registerConfig } from './config/index.js';
import { registerConnections } from './connections/index.js';
import { registerApi } from './api/index.js';
import { registerFindings } from './findings/index.js';
import { registerScans } from './scans/index.js';
import { registerWebhooks } from './webhooks/index.js';

/** The command tree. Each noun registers its verbs; each verb's code loads only when it runs. */
export function registerCommands(program: Command, makeContext: MakeContext): void {
  registerAuth(program, makeContext);
  registerConnections(program, makeContext);
  registerScans(program, makeContext);
  registerFindings(program, makeContext);
  registerWebhooks(program, makeContext);
  registerApi(program, makeContext);
  registerConfig(program, makeContext);
}
