// `cssctl mcp` through a client no one here wrote: the MCP Inspector's command-line client
// (@modelcontextprotocol/inspector-cli, a dev dependency) runs the built CLI as its stdio server and does a
// tools/list and a tools/call, as a user trying the server would.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, World } from './harness.js';

const INSPECTOR = fileURLToPath(
  new URL('../../node_modules/@modelcontextprotocol/inspector-cli/build/cli.js', import.meta.url),
);

let w: World;
let dir: string;
beforeAll(async () => {
  w = await World.start({ rateLimit: 100_000 });
  await w.login();
  // inspector-cli 1.0.3 imports its own package.json by a relative path it first checks against the working
  // folder (`../package.json`): it runs from a folder whose parent has one, as it does from a project's own.
  dir = mkdtempSync(join(tmpdir(), 'cssctl-inspector-'));
  writeFileSync(join(dir, 'package.json'), '{}\n');
  mkdirSync(join(dir, 'work'));
});
afterAll(async () => {
  await w.close();
  rmSync(dir, { recursive: true, force: true });
});

function inspector(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  // The server gets only what -e names (and the SDK's few defaults: HOME, PATH…), as a desktop client starts it.
  const env = ['CSSCTL_CONFIG_DIR', 'XDG_CACHE_HOME', 'HOME'].flatMap((k) => ['-e', `${k}=${w.env[k]}`]);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [INSPECTOR, '--cli', ...env, ...CLI, 'mcp', ...args], {
      cwd: join(dir, 'work'),
      // The inspector starts its client with the `node` on PATH: this one.
      env: { ...w.env, PATH: `${dirname(process.execPath)}:${w.env.PATH ?? ''}` } as NodeJS.ProcessEnv,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

describe('the MCP Inspector CLI', () => {
  it('tools/list: the read-only tools, each with its schemas and annotations', async () => {
    const r = await inspector(['--method', 'tools/list']);
    expect(r.code, r.stderr).toBe(0);
    const { tools } = JSON.parse(r.stdout) as {
      tools: {
        name: string;
        inputSchema: object;
        outputSchema: object;
        annotations: { readOnlyHint: boolean };
      }[];
    };
    expect(tools.map((t) => t.name)).toStrictEqual([
      'auth_status',
      'list_connections',
      'list_scans',
      'get_scan',
      'wait_scan',
      'list_findings',
      'get_finding',
      'summarize_findings',
      'diff_findings',
      'compliance_score',
    ]);
    for (const t of tools) expect(t.annotations.readOnlyHint, t.name).toBe(true);
  });

  it('tools/call: list_scans with arguments, answered with structuredContent and the same JSON as text', async () => {
    const r = await inspector([
      '--method',
      'tools/call',
      '--tool-name',
      'list_scans',
      '--tool-arg',
      'status=completed',
      'limit=2',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const result = JSON.parse(r.stdout) as {
      content: { type: string; text: string }[];
      structuredContent: { total: number; scans: { status: string }[]; next_offset: number | null };
      isError?: boolean;
    };
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent.scans).toHaveLength(2);
    for (const s of result.structuredContent.scans) expect(s.status).toBe('completed');
    expect(JSON.parse(result.content[0]!.text)).toStrictEqual(result.structuredContent);
  });

  it('tools/call with a value outside the contract: a tool error naming the valid values', async () => {
    const r = await inspector([
      '--method',
      'tools/call',
      '--tool-name',
      'list_scans',
      '--tool-arg',
      'status=done',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const result = JSON.parse(r.stdout) as { content: { text: string }[]; isError: boolean };
    expect(result.isError).toBe(true);
    expect(result.content[0]!.text).toBe(
      'error: invalid arguments for list_scans: status: "done" is not one of queued, running, completed, failed',
    );
  });
});
