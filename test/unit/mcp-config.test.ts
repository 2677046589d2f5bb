// `cssctl mcp config` (src/commands/mcp/config.ts) through its run function: each client's format, the flags it
// carries, the settings a desktop client would not pass on, and no secret.
import { describe, expect, it } from 'vitest';
import { config } from '../../src/commands/mcp/config.js';
import { verbWorld } from '../helpers/verb.js';

const self = { command: '/opt/node/bin/node', args: ['/opt/cssctl/bin/cssctl.cjs'] };

describe('mcp config', () => {
  it.each([
    ['claude', { mcpServers: { cssctl: { command: self.command, args: [...self.args, 'mcp'] } } }],
    ['cursor', { mcpServers: { cssctl: { command: self.command, args: [...self.args, 'mcp'] } } }],
    [
      'vscode',
      { servers: { cssctl: { type: 'stdio', command: self.command, args: [...self.args, 'mcp'] } } },
    ],
  ] as const)('--client %s', async (client, block) => {
    const w = verbWorld([], {
      env: {
        CSSCTL_TOKEN: '',
        CSSCTL_BASE_URL: '',
        CSSCTL_WORKSPACE: '',
        CSSCTL_CONFIG_DIR: '',
        CSSCTL_CREDENTIAL_STORE: '',
      },
    });
    expect(await w.run(config, { client, self })).toBe(0);
    expect(JSON.parse(w.stdout.text)).toStrictEqual(block);
    expect(w.stderr.text).toMatch(/^Paste it into /);
    expect(w.requests()).toStrictEqual([]);
  });

  it('--allow-write and --profile go into the args; settings from the environment into env, never a secret', async () => {
    const w = verbWorld([], {
      globals: { profile: 'default' },
      env: {
        CSSCTL_TOKEN: 'canary-token-1',
        CSSCTL_PASSWORD: 'canary-password-2',
        CSSCTL_WEBHOOK_SECRET: 'canary-secret-3',
        CSSCTL_IGNORE_FILE: 'rel/.cssctl-ignore.yaml',
      },
    });
    expect(await w.run(config, { self, allowWrite: true })).toBe(0);
    const server = (
      JSON.parse(w.stdout.text) as { mcpServers: { cssctl: { args: string[]; env: Record<string, string> } } }
    ).mcpServers.cssctl;
    expect(server.args).toStrictEqual([...self.args, 'mcp', '--profile', 'default', '--allow-write']);
    expect(Object.keys(server.env).sort()).toStrictEqual([
      'CSSCTL_BASE_URL',
      'CSSCTL_CONFIG_DIR',
      'CSSCTL_CREDENTIAL_STORE',
      'CSSCTL_IGNORE_FILE',
      'CSSCTL_WORKSPACE',
    ]);
    expect(server.env.CSSCTL_IGNORE_FILE).toMatch(/^\/.*\/rel\/\.cssctl-ignore\.yaml$/);
    expect(w.stdout.text + w.stderr.text).not.toMatch(/canary/);
  });

  it('a profile that does not exist: exit 2 naming it', async () => {
    const w = verbWorld([], { globals: { profile: 'nope' } });
    expect(await w.run(config, { self })).toBe(2);
    expect(w.stderr.text).toContain('no profile named "nope"');
  });

  it('--toolsets and --tools go into the args, checked first: a name the server does not have is exit 2', async () => {
    const w = verbWorld([], {});
    expect(await w.run(config, { self, toolsets: 'findings,account', tools: 'get_scan' })).toBe(0);
    const server = (JSON.parse(w.stdout.text) as { mcpServers: { cssctl: { args: string[] } } }).mcpServers
      .cssctl;
    expect(server.args).toStrictEqual([
      ...self.args,
      'mcp',
      '--toolsets',
      'findings,account',
      '--tools',
      'get_scan',
    ]);
    const bad = verbWorld([], {});
    expect(await bad.run(config, { self, toolsets: 'findings,admin' })).toBe(2);
    expect(bad.stderr.text).toContain('--toolsets: "admin" is not one of account, scans, findings');
    expect(bad.stdout.text).toBe('');
  });

  it.each(['https://user:pw@scanner.example.com', 'https://scanner.example.com/?token=abc'])(
    'a base URL with credentials or a query (%s) is refused, exit 2, nothing printed to paste',
    async (url) => {
      const w = verbWorld([], { env: { CSSCTL_BASE_URL: url } });
      expect(await w.run(config, { self })).toBe(2);
      expect(w.stdout.text).toBe('');
      expect(w.stderr.text).toMatch(/invalid base URL/);
    },
  );
});
