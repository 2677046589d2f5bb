// The global options (cli-contract.md §1), defined once, and one small tokenizer that reads argv with them.
// src/cli.ts makes commander's options from GLOBAL_OPTIONS (commander parses argv); the tokenizer is for what
// must be known before commander runs — which command is asked for (the launcher, bin/cssctl.cjs, before it
// loads the CLI; the CLI, to build only that command's part of the tree) and the flags that shape an error
// printed when parsing itself fails. CommonJS, no imports: the launcher requires it as it is, esbuild bundles it
// into the CLI.
'use strict';

/**
 * Each global option: commander's flags and description; `arity: 2` for the two-value options of --jq (jq's own
 * `--arg name value`), which commander, whose options take one value, gets joined (joinPairs).
 */
const GLOBAL_OPTIONS = [
  { flags: '--profile <name>', description: 'saved profile to use (env: CSSCTL_PROFILE)' },
  { flags: '--base-url <url>', description: 'service address (env: CSSCTL_BASE_URL)' },
  {
    flags: '-w, --workspace <slug>',
    description: 'workspace slug, sent as X-Tenant-Slug (env: CSSCTL_WORKSPACE)',
  },
  { flags: '-o, --output <format>', description: 'output format' },
  { flags: '--json', description: 'same as -o json' },
  { flags: '--no-color', description: 'no ANSI colour (env: NO_COLOR)' },
  { flags: '-q, --quiet', description: 'no spinners, notices or hints on stderr' },
  {
    flags: '--verbose',
    description: 'log each HTTP exchange to stderr, secrets redacted (env: CSSCTL_DEBUG=1)',
  },
  { flags: '--timeout <seconds>', description: 'per-request timeout (default: 30)' },
  {
    flags: '--max-wait <seconds>',
    description: 'longest total wait on rate limits for one command, past it exit 8 (default: 300)',
  },
  {
    flags: '--jq <filter>',
    description: 'filter JSON output with a jq program (implies -o json unless -o ndjson or ocsf)',
  },
  {
    flags: '--arg <name> <value>',
    description: 'with --jq: bind $name to the string value (repeatable)',
    arity: 2,
  },
  {
    flags: '--argjson <name> <json>',
    description: 'with --jq: bind $name to the JSON value (repeatable)',
    arity: 2,
  },
  {
    flags: '--jq-exit-status',
    description: 'with --jq: exit 1 when the last result is false or null (as jq -e)',
  },
];

/** Separates the name and value of a two-value option inside commander's one value. */
const PAIR_SEP = '\u0000';

/** `-w, --workspace <slug>` → { short: 'w', long: 'workspace', values: 1 }. */
function shapeOf(option) {
  const short = /(?:^|[ ,|])-([A-Za-z])\b/.exec(option.flags)?.[1];
  const long = /--([a-z][\w-]*)/.exec(option.flags)?.[1];
  const values = option.arity ?? (/<[^>]+>|\[[^\]]+\]/.test(option.flags) ? 1 : 0);
  return { short, long, values };
}

const SHAPES = GLOBAL_OPTIONS.map(shapeOf);

/**
 * Reads argv as commander will read the global options: `flags` maps each global option's long name to the
 * values it was given (`[]` for a switch; `--output=json`, `-ojson`, `-qo json` and `--no-color` understood);
 * `words` are the arguments that are neither an option nor an option's value, with their index in argv; an
 * option the tokenizer does not know (a subcommand's own) is taken as a switch; nothing after `--` is read.
 * A two-value option missing a value is in `short`.
 */
function tokenize(argv) {
  const flags = new Map();
  const words = [];
  const short = [];
  const add = (name, values) => flags.set(name, [...(flags.get(name) ?? []), ...values]);
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--') break;
    if (a.startsWith('--')) {
      const eq = a.indexOf('=');
      const name = a.slice(2, eq < 0 ? undefined : eq);
      const shape = SHAPES.find((s) => s.long === name);
      if (!shape || shape.values === 0) {
        add(name, eq < 0 ? [] : [a.slice(eq + 1)]);
        continue;
      }
      const values = eq < 0 ? [] : [a.slice(eq + 1)];
      while (values.length < shape.values && i + 1 < argv.length) values.push(argv[++i]);
      if (values.length < shape.values) short.push(name);
      add(name, values);
      continue;
    }
    if (a.startsWith('-') && a.length > 1) {
      // A cluster of short flags: `-q`, `-qo json`, `-ojson`; a flag that takes a value takes the rest.
      for (let j = 1; j < a.length; j++) {
        const shape = SHAPES.find((s) => s.short === a[j]);
        if (!shape) {
          add(a[j], []);
          continue;
        }
        if (shape.values === 0) {
          add(shape.long, []);
          continue;
        }
        const rest = a.slice(j + 1);
        add(
          shape.long,
          [rest !== '' ? rest : argv[++i]].filter((v) => v !== undefined),
        );
        break;
      }
      continue;
    }
    words.push({ word: a, index: i });
  }
  return { flags, words, short };
}

/**
 * argv with each two-value option's values joined into one (`--arg`, `name<NUL>value`), for commander; nothing
 * after `--` is touched. Returns the option missing a value, if one is, instead.
 */
function joinPairs(argv) {
  const out = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--') {
      out.push(...argv.slice(i));
      break;
    }
    const shape = a.startsWith('--') ? SHAPES.find((s) => s.values === 2 && `--${s.long}` === a) : undefined;
    if (!shape) {
      out.push(a);
      continue;
    }
    if (i + 2 >= argv.length) return { missing: a };
    out.push(a, `${argv[i + 1]}${PAIR_SEP}${argv[i + 2]}`);
    i += 2;
  }
  return { argv: out };
}

module.exports = { GLOBAL_OPTIONS, PAIR_SEP, tokenize, joinPairs };
