// tools/list and tools/call (cli-contract.md §13), apart from the protocol: what the server offers, and how one
// call runs — its input checked against the tool's schema before anything is sent, a context of its own (its IO,
// its cancellation, its progress) over the server's session and rate-limit budget, the tool's handler, and the
// result as structuredContent with the same JSON as text. A failure the CLI would report is a result with
// isError and the line the CLI would print; only a tool that does not exist is a protocol error.
import type { ErrorObject, Ajv as AjvInstance, ValidateFunction } from 'ajv';
import type { CallContexts, Context } from '../core/context.js';
import { errorLine } from '../core/error-line.js';
import { CliError } from '../core/errors.js';
import { CallIO } from './call-io.js';
import { CallProgress, type ProgressParams } from './progress.js';
import { PATTERN_MEANS } from './schemas.js';
import { SecretForms } from './secrets.js';
import { TOOLS, annotationsOf, type Annotations, type Tool } from './tools.js';
import { selectTools, type Selection } from '../commands/mcp/toolsets.js';

export interface ToolDescription {
  name: string;
  title: string;
  description: string;
  inputSchema: Record<string, unknown>;
  outputSchema: Record<string, unknown>;
  annotations: Annotations;
}

export interface ToolResult {
  [key: string]: unknown;
  content: { type: 'text'; text: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

export interface CallExtra {
  /** Aborted by notifications/cancelled (and when the server closes). */
  signal: AbortSignal;
  /** Set when the request carried a progressToken: sends one notifications/progress. */
  progress?: (p: ProgressParams) => void;
  /**
   * Set when the client declared the elicitation capability: asks the user to confirm a write, in one
   * sentence; resolves to what they answered (accept, decline, cancel).
   */
  confirm?: (sentence: string, signal: AbortSignal) => Promise<'accept' | 'decline' | 'cancel'>;
}

/** Secrets the environment may hold (CSSCTL_TOKEN is the session's too). */
const SECRET_ENV = ['CSSCTL_TOKEN', 'CSSCTL_PASSWORD', 'CSSCTL_WEBHOOK_SECRET'];

/** A tools/call naming no tool this server has: the protocol's invalid-params error (the SDK's McpError). */
export class UnknownToolError extends Error {}

type AjvClass = new (opts: Record<string, unknown>) => AjvInstance;

export interface ToolCallsOptions extends Selection {
  allowWrite: boolean;
  Ajv: AjvClass;
}

export class ToolCalls {
  private readonly tools: readonly Tool[];
  private ajv?: AjvInstance;
  private outputAjv?: AjvInstance;
  private readonly validators = new Map<string, ValidateFunction>();
  private readonly outputValidators = new Map<string, ValidateFunction>();
  private readonly secrets = new SecretForms();
  /** The profile of the server's life: the one active when it started (cli-contract.md §13). */
  readonly profile: string;

  constructor(
    private readonly root: Context & CallContexts,
    private readonly opts: ToolCallsOptions,
    tools: readonly Tool[] = TOOLS,
  ) {
    // The secrets of the environment are masked in every line and result, whatever the service sends back.
    for (const name of SECRET_ENV) root.io.addSecret(root.env[name]);
    // Fixed now: `cssctl auth switch` in a terminal does not move a running server to another workspace.
    this.profile = root.profileName;
    // Write tools do not exist without --allow-write: not listed, and a call to one names the flag. --toolsets
    // and --tools narrow what is offered (selectTools checks their names).
    const chosen = selectTools(tools, opts);
    this.tools = chosen.filter((t) => opts.allowWrite || !t.write);
    this.all = tools;
    this.chosen = chosen;
  }

  private readonly chosen: readonly Tool[];

  private readonly all: readonly Tool[];

  list(): ToolDescription[] {
    return this.tools.map((t) => ({
      name: t.name,
      title: t.title,
      description: t.description,
      inputSchema: t.inputSchema,
      outputSchema: t.outputSchema,
      annotations: annotationsOf(t),
    }));
  }

  async call(name: string, args: Record<string, unknown> | undefined, extra: CallExtra): Promise<ToolResult> {
    const tool = this.tools.find((t) => t.name === name);
    if (!tool) {
      if (this.chosen.some((t) => t.name === name && t.write))
        return failure(
          `error: ${name} changes something and is offered only when the server runs with --allow-write (cssctl mcp --allow-write; cssctl mcp config --allow-write prints the client settings)`,
        );
      if (this.all.some((t) => t.name === name))
        return failure(
          `error: ${name} is not offered by this server (its --toolsets or --tools leave it out); the tools are ${this.tools.map((t) => t.name).join(', ')}`,
        );
      throw new UnknownToolError(
        `unknown tool "${name}": the tools are ${this.tools.map((t) => t.name).join(', ')}`,
      );
    }
    return this.run(tool, args, extra);
  }

  /** A read-only tool, offered or not (a resource read is get_finding or get_scan, whatever --tools says). */
  read(name: string, args: Record<string, unknown>, extra: CallExtra): Promise<ToolResult> {
    const tool = this.all.find((t) => t.name === name && !t.write);
    if (!tool) throw new UnknownToolError(`unknown tool "${name}"`);
    return this.run(tool, args, extra);
  }

  private async run(
    tool: Tool,
    args: Record<string, unknown> | undefined,
    extra: CallExtra,
  ): Promise<ToolResult> {
    // Checked (defaults filled in) before anything is sent: a value outside the contract is an error the
    // assistant can correct, naming the valid values.
    const validate = this.validator(tool);
    const call = tool.accept(structuredClone(args ?? {}), validate);
    if (!call) return failure(`error: ${invalidInput(tool, validate.errors ?? [])}`);

    const report = extra.progress ? new CallProgress(extra.progress) : undefined;
    const io = new CallIO(this.root.io, this.root.env, report);
    const ctx = this.root.forCall({
      io,
      signal: extra.signal,
      argv: call.argv,
      globals: { output: 'json', json: false, jq: undefined, profile: this.profile },
    });
    const redact = (t: string) => this.mask(io.redact(t));
    try {
      // A write is confirmed by the user first when the client can ask them (elicitation): declined or
      // cancelled, nothing is sent or written.
      if (tool.write && call.confirmation && extra.confirm) {
        const sentence = call.confirmation(ctx);
        let answer: 'accept' | 'decline' | 'cancel';
        try {
          answer = await extra.confirm(sentence, extra.signal);
        } catch (err) {
          if (extra.signal.aborted) throw err;
          // The client could not ask (it answered the elicitation with an error): nothing happens either.
          return failure(
            `error: the client did not confirm "${sentence}" (its answer to the question was an error); nothing was sent or written`,
          );
        }
        if (answer !== 'accept')
          return failure(
            `error: the user ${answer === 'decline' ? 'declined' : 'cancelled'} "${sentence}"; nothing was sent or written`,
          );
      }
      const data = redactDeep(await call.run(ctx), redact);
      // Whatever the service sent, a result fits the tool's outputSchema, or the call says it could not read it.
      const check = this.outputValidator(tool);
      if (!check(data)) {
        if (io.verbose) io.debug(redact(`mcp: ${tool.name}: ${JSON.stringify(check.errors?.slice(0, 3))}`));
        return failure(
          `error: the service's answer could not be read: it does not have the shape ${tool.name} returns${whereOf(check.errors ?? [], tool)}`,
        );
      }
      return { content: [{ type: 'text', text: JSON.stringify(data) }], structuredContent: data };
    } catch (err) {
      // A cancelled call gets no result (the SDK sends none); its error is not worth a line.
      if (extra.signal.aborted) throw err;
      if (io.verbose)
        for (let c: unknown = err; c instanceof Error; c = c.cause) if (c.stack) io.debug(redact(c.stack));
      // Not an error cssctl reports (a TypeError on an answer of an odd shape): never its message.
      if (!(err instanceof CliError))
        return failure(
          "error: the service's answer could not be read (cssctl mcp --verbose logs why on its stderr)",
        );
      return failure(redact(errorLine(err, undefined, { neutral: true })));
    } finally {
      report?.end();
    }
  }

  /** Every form of the server's secrets masked (exact, lower-cased, slugged: src/mcp/secrets.ts). */
  private mask(text: string): string {
    this.secrets.update(this.root.io.secretValues());
    return this.secrets.mask(text);
  }

  private outputValidator(tool: Tool): ValidateFunction {
    let v = this.outputValidators.get(tool.name);
    if (!v) {
      // strictRequired off: an output schema may require a field it says nothing more of (tools/list stays short).
      this.outputAjv ??= new this.opts.Ajv({ allErrors: false, strict: true, strictRequired: false });
      v = this.outputAjv.compile(tool.outputSchema);
      this.outputValidators.set(tool.name, v);
    }
    return v;
  }

  private validator(tool: Tool): ValidateFunction {
    let v = this.validators.get(tool.name);
    if (!v) {
      // Made on the first call, not at start-up: `initialize` answers without compiling anything.
      this.ajv ??= new this.opts.Ajv({ allErrors: true, useDefaults: true, strict: true, verbose: true });
      v = this.ajv.compile(tool.inputSchema);
      this.validators.set(tool.name, v);
    }
    return v;
  }
}

/** ` (at scans[3])`: where the answer went wrong, named by the schema's own properties and positions only. */
function whereOf(errors: ErrorObject[], tool: Tool): string {
  const known = new Set(Object.keys((tool.outputSchema.properties as object | undefined) ?? {}));
  const first = errors[0];
  if (!first) return '';
  const parts = first.instancePath.split('/').slice(1);
  const shown: string[] = [];
  for (const [i, p] of parts.entries()) {
    if (/^\d+$/.test(p)) shown.push(`[${p}]`);
    else if (i === 0 && known.has(p)) shown.push(p);
    else break;
  }
  return shown.length > 0 ? ` (at ${shown.join('')})` : '';
}

function failure(line: string): ToolResult {
  return { content: [{ type: 'text', text: line }], isError: true };
}

/** `severity[1]: "urgent" is not one of critical, high, medium, low, info` — every problem, in one line. */
export function invalidInput(tool: Tool, errors: ErrorObject[]): string {
  const props = Object.keys((tool.inputSchema.properties as object | undefined) ?? {});
  const seen = new Set<string>();
  const parts: string[] = [];
  for (const e of errors) {
    const where = fieldName(e.instancePath) || 'the arguments';
    const field = e.instancePath.split('/')[1] ?? '';
    let text: string;
    switch (e.keyword) {
      case 'additionalProperties': {
        const name = String((e.params as { additionalProperty: string }).additionalProperty);
        text =
          props.length === 0
            ? `unknown property "${clip(name)}": ${tool.name} takes no arguments`
            : `unknown property "${clip(name)}": ${tool.name} takes ${props.join(', ')}`;
        break;
      }
      case 'required':
        text = `missing property "${(e.params as { missingProperty: string }).missingProperty}"`;
        break;
      case 'enum':
        text = `${where}: ${shown(e.data)} is not one of ${(e.params as { allowedValues: unknown[] }).allowedValues.join(', ')}`;
        break;
      case 'maximum':
        text = `${where}: ${shown(e.data)} is more than ${(e.params as { limit: number }).limit}, the most allowed`;
        break;
      case 'minimum':
        text = `${where}: ${shown(e.data)} is less than ${(e.params as { limit: number }).limit}, the least allowed`;
        break;
      case 'type':
        text = `${where}: ${shown(e.data)} is not ${article((e.params as { type: string }).type)}`;
        break;
      case 'pattern':
      case 'minLength':
      case 'maxLength':
        text = `${where}: ${shown(e.data)} is not ${PATTERN_MEANS[field] ?? 'a valid value'}${e.keyword === 'maxLength' ? ` of at most ${(e.params as { limit: number }).limit} characters` : ''}`;
        break;
      case 'uniqueItems':
        text = `${where} names a value twice`;
        break;
      case 'minItems':
        text = `${where} must name at least one value, or be left out`;
        break;
      default:
        text = `${where} ${e.message ?? 'is not valid'}`;
    }
    if (!seen.has(text)) parts.push(text);
    seen.add(text);
  }
  return `invalid arguments for ${tool.name}: ${parts.join('; ')}`;
}

/** `/severity/1` → `severity[1]`. */
function fieldName(path: string): string {
  return path
    .split('/')
    .slice(1)
    .map((p, i) => (/^\d+$/.test(p) ? `[${p}]` : i === 0 ? p : `.${p}`))
    .join('');
}

function shown(value: unknown): string {
  return clip(JSON.stringify(value) ?? String(value));
}

function clip(text: string): string {
  return text.length > 60 ? `${text.slice(0, 59)}…` : text;
}

function article(type: string): string {
  return type === 'integer' ? 'a whole number' : type === 'array' ? 'a list' : `a ${type}`;
}

/**
 * Every string of a result with the server's secrets masked: an answer of the service that echoes a token (in a
 * title, say) never carries it to the assistant. Keys too, since they are the service's text as well.
 */
export function redactDeep<T>(value: T, redact: (text: string) => string): T {
  if (typeof value === 'string') return redact(value) as T;
  if (Array.isArray(value)) return value.map((v) => redactDeep(v, redact)) as T;
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[redact(k)] = redactDeep(v, redact);
    return out as T;
  }
  return value;
}
