// The layers of src/ point down only (docs/development.md): the front ends (action, then cli and mcp) → commands →
// report / completion / jq / help / reference → api → core. The GitHub Action (src/action/) is a front end over the
// terminal's renderer; nothing imports it. Every module of src/ is in a layer: one outside them fails too
// (test/unit/layers.test.ts checks each folder of src/ is named here, and that an arrow up fails).
// `npm run lint` runs dependency-cruiser with these rules, so an import back up, or a cycle, fails CI.
const layer = {
  action: '^src/action/',
  // The front ends: the terminal's (src/cli.ts, src/cli/) and the MCP server (src/mcp/, started by src/cli/wire.ts).
  cli: '^src/(cli\\.ts|cli/|mcp/)',
  commands: '^src/commands/',
  // What the commands report and the help around them: help/ (help topics, a command's examples) and reference/
  // (docs/commands.md and the man pages, written from the commander program by scripts/gen-docs.mjs).
  middle: '^src/(report|completion|jq|help|reference)/',
  api: '^src/api/',
  core: '^src/(core/|version\\.ts|types/)',
};

/** A rule: modules of `from` may import nothing of `to`. */
const down = (name, from, to, comment) => ({
  name,
  comment,
  severity: 'error',
  from: { path: from },
  to: { path: to },
});

/** Every module of src/, as one pattern: a module outside it is in no layer. */
const layered = Object.values(layer).join('|');

module.exports = {
  forbidden: [
    {
      name: 'every-module-in-a-layer',
      comment:
        'each module of src/ belongs to a layer (the `layer` table above): add a new folder to one, so its arrows are checked',
      severity: 'error',
      from: { path: '^src/', pathNot: layered },
      to: {},
    },
    {
      name: 'nothing-imports-outside-the-layers',
      comment:
        'a module of src/ in no layer (the `layer` table above) cannot be checked: add its folder to a layer',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^src/', pathNot: layered },
    },
    down(
      'nothing-imports-the-action',
      '^src/(?!action/)',
      layer.action,
      'the GitHub Action is a front end: it runs the verbs and the renderer; nothing below it knows it',
    ),
    down(
      'core-points-down',
      layer.core,
      `${layer.api}|${layer.middle}|${layer.commands}|${layer.cli}`,
      'core is the bottom layer: settings, IO, HTTP, files, errors; it knows no endpoint, report or command',
    ),
    down(
      'api-points-down',
      layer.api,
      `${layer.middle}|${layer.commands}|${layer.cli}`,
      'api holds one function per endpoint, over core only',
    ),
    down(
      'middle-points-down',
      layer.middle,
      `${layer.commands}|${layer.cli}`,
      'reports, completion, jq, help and the reference serve the commands; they never reach up into a verb or the CLI',
    ),
    down(
      'commands-point-down',
      layer.commands,
      layer.cli,
      'a verb returns a result; only a front end (src/cli, src/mcp) renders it and chooses the exit code',
    ),
    {
      name: 'library-internals-in-one-adapter',
      comment:
        "a library's files past its public entry (cli-table3/src/utils.js) are reached from one adapter only, which says why (src/core/output/text-width.ts)",
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/core/output/text-width\\.ts$' },
      to: { path: 'node_modules/cli-table3/src/' },
    },
    {
      name: 'no-cycles',
      comment: 'an import cycle makes two modules one; split what both need into a third',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    exclude: { path: '^(dist|test|scripts|bin)/' },
  },
};
