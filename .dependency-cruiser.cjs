// The layers of src/ point down only (docs/development.md): the front ends (action, then cli and mcp) → commands →
// report / completion / jq → api → core. The GitHub Action (src/action/) is a front end over the terminal's
// renderer; nothing imports it.
// `npm run lint` runs dependency-cruiser with these rules, so an import back up, or a cycle, fails CI.
const layer = {
  action: '^src/action/',
  // The front ends: the terminal's (src/cli.ts, src/cli/) and the MCP server (src/mcp/, started by src/cli/wire.ts).
  cli: '^src/(cli\\.ts|cli/|mcp/)',
  commands: '^src/commands/',
  middle: '^src/(report|completion|jq)/',
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

module.exports = {
  forbidden: [
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
      'reports, completion and jq serve the commands; they never reach up into a verb or the CLI',
    ),
    down(
      'commands-point-down',
      layer.commands,
      layer.cli,
      'a verb returns a result; only a front end (src/cli, src/mcp) renders it and chooses the exit code',
    ),
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
