import type { Context } from '../../core/context.js';
import { after, sentence, type Result } from '../../report/result.js';
import { validateEmail, validateWorkspace } from '../../core/config.js';
import { fileStoreProtection } from '../../core/credentials.js';
import { UsageError } from '../../core/errors.js';
import { tokensFrom } from '../../core/http/session.js';
import { promptPassword, promptText } from '../../core/prompt.js';
import { readHiddenLine, readSecretLine } from '../../core/stdin.js';
import { normalizeBaseUrl } from '../../core/url.js';
import { login as apiLogin } from '../../api/auth.js';
import type { OptionsOf } from '../shared/define.js';
import type { loginCommand } from './login.command.js';

/** What `cssctl login` takes (login.command.ts). */
export type LoginOptions = OptionsOf<typeof loginCommand>;

export async function login(ctx: Context, opts: LoginOptions): Promise<Result> {
  const { io, env } = ctx;
  ctx.allowNewProfile(); // a login creates the profile it is given
  const settings = await ctx.settings();

  const baseUrl =
    settings.baseUrl ??
    (io.canPrompt
      ? normalizeBaseUrl(await promptText(io, 'Service URL', { validate: validUrl }))
      : missing('a service address', 'pass --base-url <url> or set CSSCTL_BASE_URL'));
  let workspace = settings.workspace;
  // A bad answer at a prompt asks again (the message says why) rather than ending the login.
  if (!workspace && io.canPrompt)
    workspace = validateWorkspace(
      await promptText(io, 'Workspace slug', { validate: valid(validateWorkspace) }),
    );

  const emailRaw = opts.email ?? settings.email;
  const email = emailRaw
    ? validateEmail(emailRaw)
    : io.canPrompt
      ? validateEmail(await promptText(io, 'Email', { validate: valid(validateEmail) }))
      : missing('an email address', 'pass --email <address> or set CSSCTL_EMAIL');

  let password: string;
  if (opts.passwordStdin && io.stdin.isTTY) {
    // A terminal, not a pipe: say what is awaited, and do not echo it.
    io.notice('--password-stdin: waiting for the password on stdin (type it, then Enter; it is not shown)');
    password = await readHiddenLine(io.stdin, 'the password on standard input');
  } else if (opts.passwordStdin)
    password = await readSecretLine(io.stdin, 'the password on standard input', ctx.signal);
  else if (env.CSSCTL_PASSWORD) password = env.CSSCTL_PASSWORD;
  else if (io.canPrompt) password = await promptPassword(io, `Password for ${email}`);
  else {
    throw new UsageError('no password given and no terminal to ask on', {
      hint: 'use --password-stdin or set CSSCTL_PASSWORD',
    });
  }
  io.addSecret(password);

  const client = await ctx.loginClient(baseUrl, workspace);
  const spinner = await io.spinner(`Logging in to ${baseUrl}…`);
  let answer;
  try {
    answer = await apiLogin(client, email, password);
  } finally {
    spinner.stop();
  }
  const tokens = { ...tokensFrom(answer, ctx.clock.now()), base_url: baseUrl };
  io.addSecret(tokens.access_token);
  io.addSecret(tokens.refresh_token);

  const credentials = ctx.credentials();
  const { store, fallback } = await credentials.save(ctx.profileName, tokens);
  if (fallback)
    io.warn(`${fallback}; the session is stored in ${credentials.file.path} (${fileStoreProtection()})`);
  await (await ctx.config()).update(ctx.profileName, { base_url: baseUrl, workspace, email });

  if (env.CSSCTL_TOKEN)
    io.warn('CSSCTL_TOKEN is set: it takes precedence over this login until you unset it');
  const summary = {
    profile: ctx.profileName,
    base_url: baseUrl,
    workspace: workspace ?? null,
    email,
    token_store: store,
    expires_at: new Date(tokens.expires_at).toISOString(),
  };
  const where = store === 'keychain' ? 'the OS keychain' : credentials.file.path;
  return {
    output: sentence(
      summary,
      settings.output,
      `Logged in to ${baseUrl} as ${email}${workspace ? `, workspace ${workspace}` : ''} (profile ${ctx.profileName}); token stored in ${where}`,
    ),
    ...after(() => {
      if (!workspace && settings.output === 'table')
        io.hint('No workspace set yet: run cssctl config set workspace <slug>');
    }),
  };
}

function valid(check: (v: string) => unknown): (v: string) => true | string {
  return (v) => {
    try {
      check(v.trim());
      return true;
    } catch (err) {
      return (err as Error).message;
    }
  };
}

const validUrl = valid(normalizeBaseUrl);

function missing(what: string, hint: string): never {
  throw new UsageError(`${what} is required and there is no terminal to ask on`, { hint });
}
