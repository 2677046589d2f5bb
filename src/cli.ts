import { Command, CommanderError, Help, Option } from 'commander';
import type { Clock } from './core/clock.js';
import type { Context } from './core/context.js';
import { ProcessContext } from './core/process-context.js';
import type { GlobalOptions } from './core/settings.js';
import {
  ExitCode,
  ExitError,
  InterruptedError,
  OutputClosed,
  SilentExit,
  UsageError,
  exitCodeFor,
} from './core/errors.js';
import { IO, type Streams } from './core/io.js';
import { isBrokenPipe } from './core/sink.js';
import { apiErrorOf, errorLine } from './core/error-line.js';
import { registerCommands } from './commands/index.js';
import { registerCompletion } from './commands/completion/index.js';
import { addExamples } from './commands/examples.js';
import { VERSION } from './version.js';
import { GLOBAL_OPTIONS, joinPairs, tokenize } from '../bin/argv.cjs';
import { REPORT_FORMATS } from './core/output/formats.js';
import { WIDE_LIST_OFFER } from './core/output/offer.js';
import { wireVerbs, type MakeContext } from './cli/wire.js';
import type { Wire } from './commands/shared/action.js';
import { topicsHelpText } from './help/topics.js';

export { launchManifest } from './commands/shared/streams.js';

export interface MainOptions {
  argv: string[];
  env: NodeJS.ProcessEnv;
  streams: Streams;
  clock?: Clock;
  /** Aborted on Ctrl-C; every wait and request listens to it. */
  signal?: AbortSignal;
  /**
   * `argv` as bin/argv.cjs's tokenizer read it, when the launcher has read it already (bin/cssctl.cjs): argv is
   * read once, here when not given.
   */
  tokens?: Tokens;
}

/** argv as the shared tokenizer reads it (bin/argv.cjs): the global options, and the words that are not options. */
export type Tokens = ReturnType<typeof tokenize>;

/**
 * Flags that shape how errors are printed must be known even when parsing itself fails, so they are read from
 * argv with the shared tokenizer (bin/argv.cjs); commander does the real parsing.
 */
function earlyFlags({ flags }: Tokens, env: NodeJS.ProcessEnv) {
  const output = flags.get('output')?.at(-1);
  return {
    quiet: flags.has('quiet'),
    verbose: flags.has('verbose') || env.CSSCTL_DEBUG === '1',
    noColor: flags.has('no-color'),
    // --jq implies -o json for what its filter reads, not for errors: they follow what the user asked for
    // (-o json|ndjson, --json, or the profile's saved output), as they would without --jq (process-context.ts).
    jsonErrors: flags.has('json') || output === 'json' || output === 'ndjson',
  };
}

/** The first word of argv that is not an option or an option's value (the command), with its index. */
function commandWord(tokens: Tokens): { word?: string; index: number } {
  return tokens.words[0] ?? { index: -1 };
}

/** The words of argv after index `from` that are not options or option values. */
function positionals(tokens: Tokens, from: number): string[] {
  return tokens.words.filter((w) => w.index >= from).map((w) => w.word);
}

/**
 * `cssctl help [command...]` is `cssctl [command...] --help`; `cssctl help <topic>` prints a docs/ page
 * (src/help/). Anything else after `help` is a usage error naming the topics (src/help/command.ts).
 */
async function routeHelp(
  argv: string[],
  tokens: Tokens,
  program: Command,
): Promise<{ argv: string[] } | { topic: string }> {
  const { word, index } = commandWord(tokens);
  if (word !== 'help') return { argv };
  const route = (await import('./help/command.js')).routeHelp(program, positionals(tokens, index + 1));
  if ('topic' in route) return route;
  return { argv: [...argv.slice(0, index), ...argv.slice(index + 1), '--help'] };
}

/** `cssctl help <topic>`: the page, as wide as the terminal (80 columns when stdout is not one). */
async function printTopic(io: IO, topic: string): Promise<void> {
  const { renderTopic } = await import('./help/pages.js');
  const columns = helpWidth(io.stdout);
  const c = io.color;
  io.out(
    renderTopic(topic, {
      // A terminal that reports 0 columns (`script`, `docker -t`) says nothing of its width.
      width: columns > 0 ? columns : 80,
      style:
        c.level > 0 ? { bold: (t) => c.bold(t), dim: (t) => c.dim(t), code: (t) => c.cyan(t) } : undefined,
    }),
  );
}

/** Commander's options from the one definition of the global options (bin/argv.cjs). */
function globalOptions(): Option[] {
  return GLOBAL_OPTIONS.map((o) => {
    const option = new Option(
      o.flags,
      o.flags.startsWith('-o,')
        ? `output format: ${WIDE_LIST_OFFER.names.join(', ')}; findings and scan reports also ${REPORT_FORMATS.join(', ')} (default: table, or the profile's output)`
        : o.description,
    );
    // Repeatable, as jq's own: every `--arg name value` is kept (joined by joinPairs).
    if (o.arity === 2) option.argParser(collectArg);
    return option;
  });
}

/**
 * Help lists a command's subcommands first, then its options: `cssctl findings --help` leads with its five
 * verbs, not with the fifteen global options every command shares (as gh puts its commands before its
 * flags). Commander's own text, its sections reordered: they are separated by blank lines and start with a
 * heading such as `Commands:`.
 */
export function commandsFirst(text: string): string {
  const blocks = text.replace(/\n+$/, '').split('\n\n');
  const commands = blocks.findIndex((b) => b.startsWith('Commands:'));
  const first = blocks.findIndex((b) => /^(Arguments|Options|Global Options):/.test(b));
  if (commands < 0 || first < 0 || commands < first) return text;
  const [moved] = blocks.splice(commands, 1);
  blocks.splice(first, 0, moved!);
  return `${blocks.join('\n\n')}\n`;
}

const HELP = {
  showGlobalOptions: true,
  formatHelp: (cmd: Command, helper: Help) =>
    commandsFirst(Help.prototype.formatHelp.call(helper, cmd, helper)),
  // A parent's option that the command declares itself (`mcp config --allow-write`) is listed once, as the
  // command's.
  visibleGlobalOptions(this: Help, cmd: Command) {
    const own = new Set(cmd.options.map((o) => o.long));
    return Help.prototype.visibleGlobalOptions.call(this, cmd).filter((o) => !own.has(o.long));
  },
};

/**
 * The command tree. With `argv`, a command word that names one of the tree's nouns (or top-level verbs)
 * registers that one only: the rest of the tree would be built for nothing (~5 ms of a request command's
 * start-up). Help, completion and anything unknown get the whole tree, so the root help, the completion
 * scripts and "did you mean" suggestions see every command. `wire`: how a command's action reaches its verb (the
 * terminal's, src/cli/wire.ts; the argv tests capture what a verb would be given instead).
 */
export function buildProgram(
  io: IO,
  makeContext: MakeContext,
  env: NodeJS.ProcessEnv = process.env,
  argv?: string[],
  tokens: Tokens | undefined = argv && tokenize(argv),
  wire: Wire = wireVerbs(makeContext),
): Command {
  const program = new Command('cssctl')
    .description('Command-line client for the cloud security scanning service')
    .version(VERSION, '--version', 'print the version')
    .helpOption('-h, --help', 'show help')
    .helpCommand(false)
    .configureHelp(HELP)
    .showSuggestionAfterError(true);
  for (const option of globalOptions()) program.addOption(option);
  program.configureOutput({
    writeOut: (s) => io.out(s),
    writeErr: (s) => io.stderr.write(s),
    // Help is as wide as the terminal it goes to (80 columns when it is not one).
    getOutHelpWidth: () => helpWidth(io.stdout),
    getErrHelpWidth: () => helpWidth(io.stderr),
    outputError: () => undefined, // reported by main() as one line
  });
  program.exitOverride();
  registerCommands(program, wire, tokens && commandWord(tokens).word);
  registerCompletion(program, env);
  // Every subcommand shares the program's error handling and output settings.
  const configure = (cmd: Command) => {
    addExamples(cmd);
    cmd.exitOverride();
    cmd.configureOutput(program.configureOutput());
    cmd.showSuggestionAfterError(true);
    cmd.helpCommand(false);
    cmd.configureHelp(HELP);
    cmd.commands.forEach(configure);
  };
  program.commands.forEach(configure);
  program.addHelpText('after', topicsHelpText());
  addExamples(program);
  return program;
}

function collectArg(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

/** Commander wraps help to this width: the terminal's, else 80. */
function helpWidth(stream: { isTTY?: boolean; columns?: number }): number {
  return (stream.isTTY ? stream.columns : undefined) ?? 80;
}

export async function main(opts: MainOptions): Promise<number> {
  const given = opts.tokens ?? tokenize(opts.argv);
  const early = earlyFlags(given, opts.env);
  const io = new IO(opts.streams, {
    env: opts.env,
    quiet: early.quiet,
    verbose: early.verbose,
    noColorFlag: early.noColor,
  });
  const signal = opts.signal ?? new AbortController().signal;
  let ctx: Context | undefined;
  const makeContext = (cmd: Command) =>
    (ctx = new ProcessContext({
      io,
      env: opts.env,
      globals: cmd.optsWithGlobals<GlobalOptions>(),
      signal,
      clock: opts.clock,
      argv: opts.argv,
    }));
  // Errors follow the resolved output (a profile's saved `output: json` too), not only the argv.
  const jsonErrors = () => early.jsonErrors || (ctx?.jsonErrors() ?? false);

  // `--version --verbose` is `version` (the Node, the platform, the credential store) with the other flags.
  const argv =
    opts.argv.includes('--version') && opts.argv.includes('--verbose')
      ? ['version', ...opts.argv.filter((a) => a !== '--version' && a !== '--verbose')]
      : opts.argv;
  const tokens = argv === opts.argv ? given : tokenize(argv);
  const program = buildProgram(io, makeContext, opts.env, argv, tokens);
  let code: number = ExitCode.ok;
  try {
    const paired = joinPairs(argv);
    if (paired.missing !== undefined)
      throw new UsageError(`${paired.missing} takes a name and a value: ${paired.missing} <name> <value>`);
    const route = await routeHelp(argv, tokens, program);
    if ('topic' in route) await printTopic(io, route.topic);
    // `help` taken out of argv (routeHelp): its two-value options joined again.
    else
      await program.parseAsync(route.argv === argv ? paired.argv : (joinPairs(route.argv).argv ?? []), {
        from: 'user',
      });
  } catch (err) {
    code = await failed(err, io, signal, jsonErrors());
  }
  // Output that could not be written is never a success (a reader leaving early is not worth a word).
  const unwritten = await io.finishOutput();
  if (unwritten && code === ExitCode.ok && !isBrokenPipe(io.outputFailure)) {
    reportError(io, unwritten, jsonErrors());
    code = exitCodeFor(unwritten);
  }
  return code;
}

/** Reports what ended the command; returns its exit code. */
async function failed(err: unknown, io: IO, signal: AbortSignal, jsonErrors: boolean): Promise<number> {
  if (err instanceof CommanderError) {
    // Help (asked for, or shown for a noun without a verb) and --version are answers, not failures.
    if (['commander.helpDisplayed', 'commander.help', 'commander.version'].includes(err.code))
      return ExitCode.ok;
    reportError(io, new UsageError(err.message.replace(/^error:\s*/, '').replace(/\n+/g, ' ')), jsonErrors);
    return ExitCode.usage;
  }
  // Whether the command was stopped before it failed: an interrupt or a reader leaving while the output below is
  // finished did not cause this error (a gate's exit 10 stays 10).
  const aborted = signal.aborted;
  // stdout's reader left (run()): what that stopped is not worth a word; an answer the command had already
  // reached (ExitError: a failed scan, a gate met) is still given.
  if (aborted && signal.reason instanceof OutputClosed && !(err instanceof ExitError)) return ExitCode.ok;
  // The data written before Ctrl-C reaches stdout before the resume hint reaches stderr.
  const unwritten = await io.finishOutput();
  let failure =
    aborted && !(signal.reason instanceof OutputClosed) && !(err instanceof InterruptedError)
      ? new InterruptedError()
      : err;
  // A loop stopped by a write error: that error is what the user must hear about.
  if (unwritten && !(failure instanceof InterruptedError) && !isBrokenPipe(io.outputFailure))
    failure = unwritten;
  reportError(io, failure, jsonErrors);
  return exitCodeFor(failure);
}

/** One line on stderr (or one JSON object with -o json/ndjson); a stack trace only with --verbose. */
export function reportError(io: IO, err: unknown, json: boolean): void {
  if (err instanceof SilentExit) return;
  const e = err instanceof Error ? err : new Error(String(err));
  const api = apiErrorOf(e);
  if (json) {
    const payload = {
      error: {
        status: api?.status ?? null,
        code: api?.code ?? null,
        detail: e.message,
        field: api?.field ?? null,
        request_id: api?.requestId ?? null,
        ...(api && api.fieldErrors.length > 0 ? { errors: api.fieldErrors } : {}),
        exit_code: exitCodeFor(err),
      },
    };
    io.writeErr(JSON.stringify(payload));
  } else {
    io.writeErr(errorLine(e, { red: (t) => io.errColor.red(t), dim: (t) => io.errColor.dim(t) }));
  }
  if (io.verbose) {
    // The error and the chain of causes behind it (a network error's undici cause, say).
    for (let c: unknown = e; c instanceof Error; c = c.cause) if (c.stack) io.writeErr(c.stack);
  }
}

/** Two arrivals of a signal closer than this are one (see onInterrupt). */
export const SIGNAL_ECHO_MS = 100;

/**
 * The SIGINT/SIGTERM handler: the first interrupt aborts the command (which stops cleanly: a resume hint, the
 * delivery in flight), a second one exits 130 at once. One Ctrl-C can arrive twice within a few ms: sent to
 * the process group, it reaches both this node and the one that relaunched it for an export and passes it on
 * (bin/cssctl.cjs), and another module's handler may raise it again after its clean-up. A second press comes
 * much later.
 */
export function onInterrupt(
  abort: () => void,
  exit: () => void,
  now: () => number = () => performance.now(),
) {
  let interrupts = 0;
  let last = -Infinity;
  return () => {
    const at = now();
    if (at - last < SIGNAL_ECHO_MS) return;
    last = at;
    interrupts++;
    if (interrupts > 1) exit();
    else abort();
  };
}

/**
 * The executable's entry point (bin/cssctl.cjs). `tokens`: process.argv as the launcher read it (bin/argv.cjs),
 * so the CLI does not read it again.
 */
export async function run(tokens?: Tokens): Promise<void> {
  const controller = new AbortController();
  const onSignal = onInterrupt(
    () => controller.abort(),
    () => process.exit(ExitCode.interrupted),
  );
  // Other modules' handlers stay (a lock's release, the cursor's return): with this one installed, a handler
  // that would end the process on the signal leaves that to cssctl, and their clean-up runs on 'exit'.
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  // `cssctl … | head`: a closed pipe is not an error worth a word. The command is stopped through its signal
  // (a wait or a listener would otherwise go on for a reader that is gone) and ends with the code it has: a
  // gate decided after its output was written still gives exit 10, where exiting here would race it.
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE' && !controller.signal.aborted) controller.abort(new OutputClosed());
  });
  // `cssctl … 2>&1 | head`: the reader may hold stderr too, and leave while a hint, notice or progress line is
  // written there (cli-contract.md §15). A reader leaving is not an error on either stream: what follows for
  // stderr is dropped (stdout, when it is another stream, still gets its data and its own errors).
  process.stderr.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE' || err.code === 'ERR_STREAM_DESTROYED') return;
    throw err;
  });
  const code = await main({
    argv: process.argv.slice(2),
    env: process.env,
    streams: {
      // Built by Node on first use: most commands never read stdin.
      get stdin() {
        return process.stdin;
      },
      stdout: process.stdout,
      stderr: process.stderr,
    },
    signal: controller.signal,
    tokens,
  });
  // main() has let stdout take all output; exit even if a keep-alive socket or keychain call is open.
  process.exit(code);
}
