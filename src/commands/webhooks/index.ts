import type { Command } from 'commander';
import type { Wire } from '../shared/action.js';
import { addVerb } from '../shared/define.js';
import { createCommand } from './create.command.js';
import { deleteCommand } from './delete.command.js';
import { listCommand } from './list.command.js';
import { listenCommand } from './listen.command.js';
import { REPLAY_OFFER, replayCommand } from './replay.command.js';
import { triggerCommand } from './trigger.command.js';
import { verifyCommand } from './verify.command.js';

export function registerWebhooks(program: Command, wire: Wire): void {
  const webhooks = program
    .command('webhooks')
    .description('register, receive, verify, forward, save, replay and trigger signed event deliveries');
  addVerb(webhooks, createCommand, wire, async () => (await import('./create.js')).create);
  addVerb(webhooks, listCommand, wire, async () => (await import('./list.js')).list);
  addVerb(webhooks, deleteCommand, wire, async () => (await import('./delete.js')).remove);
  addVerb(webhooks, verifyCommand, wire, async () => (await import('./verify.js')).verify);
  addVerb(webhooks, listenCommand, wire, async () => (await import('./listen.js')).listen);
  addVerb(webhooks, replayCommand, wire, async () => (await import('./replay.js')).replay, REPLAY_OFFER);
  addVerb(webhooks, triggerCommand, wire, async () => (await import('./trigger.js')).trigger);
}
