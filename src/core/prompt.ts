import type { IO } from './io.js';
import { InterruptedError, UsageError } from './errors.js';

// @inquirer prompts are loaded only when a prompt is shown; they write to stderr so stdout stays data-only.

function interrupted(err: unknown): never {
  const name = (err as { name?: string })?.name;
  if (name === 'ExitPromptError' || name === 'AbortPromptError') throw new InterruptedError();
  throw err;
}

export async function promptText(
  io: IO,
  message: string,
  opts: { default?: string; validate?: (v: string) => true | string } = {},
): Promise<string> {
  if (!io.canPrompt) throw new UsageError(`${message} is required (no terminal to ask on)`);
  const { default: input } = await import('@inquirer/input');
  try {
    return (
      await input(
        { message, default: opts.default, validate: opts.validate, theme: { prefix: '?' } },
        { input: io.stdin, output: io.stderr },
      )
    ).trim();
  } catch (err) {
    return interrupted(err);
  }
}

export async function promptPassword(io: IO, message: string): Promise<string> {
  const { default: password } = await import('@inquirer/password');
  try {
    return await password(
      {
        message,
        mask: '*',
        validate: (v: string) => (v.length > 0 ? true : 'a password is required'),
        theme: { prefix: '?' },
      },
      { input: io.stdin, output: io.stderr },
    );
  } catch (err) {
    return interrupted(err);
  }
}
