// The runner's side of a JavaScript action: how inputs arrive, how a secret is masked, how outputs and state
// leave (docs.github.com, "Workflow commands for GitHub Actions"). The same bytes @actions/core writes — checked
// against it in test/unit/action-runner.test.ts — without its bundle: @actions/core 3 pulls in @actions/http-client
// and a second undici (~420 KB) for the OIDC token an action of cssctl never asks for.
import { randomUUID } from 'node:crypto';
import { appendFileSync } from 'node:fs';

/**
 * An input as the runner passes it: `INPUT_<NAME>`, the name upper-cased with spaces as `_` (a `-` stays:
 * `INPUT_BASE-URL`), trimmed unless `trim` is false. An input the workflow did not give is ''.
 */
export function readInput(env: NodeJS.ProcessEnv, name: string, trim = true): string {
  const value = env[`INPUT_${name.replace(/ /g, '_').toUpperCase()}`] ?? '';
  return trim ? value.trim() : value;
}

/** State the main step saved, as the runner gives it to the post step: `STATE_<name>`. */
export function readState(env: NodeJS.ProcessEnv, name: string): string {
  return env[`STATE_${name}`] ?? '';
}

/**
 * A workflow command's data: `%`, CR and LF escaped and nothing else changed. (The annotations of -o github also
 * neutralise control characters; a mask must not, or it would hide another string than the secret.)
 */
function commandData(s: string): string {
  return s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** `::add-mask::<secret>`: the runner shows `***` for it from this line on, in every step of the job. */
export function maskCommand(secret: string): string {
  return `::add-mask::${commandData(secret)}\n`;
}

/**
 * The masks of a secret: the value itself and, when it spans lines, each line (the runner masks line by line
 * what it prints, so a multiline value is hidden only by its lines).
 */
export function maskCommands(secret: string): string {
  // Blank text is no secret, and masking it would hide every run of spaces in the log.
  if (secret.trim() === '') return '';
  const lines = secret.split(/\r?\n/).filter((l) => l.trim() !== '' && l !== secret);
  return [secret, ...lines].map(maskCommand).join('');
}

/**
 * One `name<<delimiter` entry of GITHUB_OUTPUT or GITHUB_STATE, the form that holds any value (several lines,
 * `=` and `<<` included): the runner reads lines up to the delimiter alone on its line. The delimiter is random,
 * so a value cannot end the entry early; one that contains it anyway is refused, as @actions/core does.
 */
export function keyValueEntry(name: string, value: string, uuid: string = randomUUID()): string {
  const delimiter = `ghadelimiter_${uuid}`;
  if (name.includes(delimiter) || value.includes(delimiter))
    throw new Error(`the value of ${name} contains the delimiter of the runner's file command`);
  return `${name}<<${delimiter}\n${value}\n${delimiter}\n`;
}

/**
 * Appends entries to the file the runner named in `GITHUB_<command>` (OUTPUT, STATE); false when the variable is
 * not set (not under a runner). The runner creates the file; appending never truncates what earlier writes left.
 */
export function appendFileCommand(
  env: NodeJS.ProcessEnv,
  command: 'OUTPUT' | 'STATE',
  entries: Record<string, string>,
): boolean {
  const path = env[`GITHUB_${command}`];
  if (!path) return false;
  const text = Object.entries(entries)
    .map(([name, value]) => keyValueEntry(name, value))
    .join('');
  appendFileSync(path, text, { encoding: 'utf8', flag: 'a' });
  return true;
}
