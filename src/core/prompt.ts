import type { IO } from './io.js';
import { InterruptedError, UsageError } from './errors.js';

// @inquirer prompts are loaded only when a prompt is shown; they write to stderr so stdout stays data-only.

/**
 * A signal for a prompt that fires when its input is closed: Ctrl-D on an empty line (readline then closes its
 * interface, which pauses the input) or the end of the input (a pty whose other side went away, as under
 * `script` with its input exhausted). @inquirer only tidies up then and its promise never settles: Node would
 * end the process with exit 13 and a warning about an unsettled top-level await.
 */
function whenInputCloses(io: IO): { signal: AbortSignal; done(): void } {
  const ac = new AbortController();
  const stdin = io.stdin;
  let settled = false;
  // 'pause' also comes when a prompt ends normally: by the next turn of the loop, done() has been called.
  const onPause = () => setImmediate(() => settled || ac.abort());
  const onEnd = () => ac.abort();
  stdin.on('pause', onPause);
  stdin.on('end', onEnd);
  return {
    signal: ac.signal,
    done() {
      settled = true;
      stdin.off('pause', onPause);
      stdin.off('end', onEnd);
    },
  };
}

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
  const closed = whenInputCloses(io);
  try {
    return (
      await input(
        { message, default: opts.default, validate: opts.validate, theme: { prefix: '?' } },
        { input: io.stdin, output: io.stderr, signal: closed.signal },
      )
    ).trim();
  } catch (err) {
    return interrupted(err);
  } finally {
    closed.done();
  }
}

export async function promptPassword(io: IO, message: string): Promise<string> {
  const { default: password } = await import('@inquirer/password');
  const closed = whenInputCloses(io);
  try {
    return await password(
      {
        message,
        mask: '*',
        validate: (v: string) => (v.length > 0 ? true : 'a password is required'),
        theme: { prefix: '?' },
      },
      { input: io.stdin, output: io.stderr, signal: closed.signal },
    );
  } catch (err) {
    return interrupted(err);
  } finally {
    closed.done();
  }
}
