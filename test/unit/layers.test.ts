// The layers of src/ (.dependency-cruiser.cjs, run by `npm run lint`): every folder and file of src/ is in one, and
// dependency-cruiser with that configuration fails on an arrow up, on a module in no layer, and on a library's
// internals reached from anywhere but their one adapter — checked on a small tree of its own.
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CONFIG = join(ROOT, '.dependency-cruiser.cjs');
const DEPCRUISE = join(ROOT, 'node_modules/dependency-cruiser/bin/dependency-cruiser.mjs');

interface Rule {
  name: string;
  from: { path?: string; pathNot?: string };
  to: { path?: string; pathNot?: string };
}
const config = createRequire(import.meta.url)(CONFIG) as { forbidden: Rule[] };
const rule = (name: string) => config.forbidden.find((r) => r.name === name)!;

describe('every part of src/ is in a layer', () => {
  it('each folder and file at the top of src/ matches a layer', () => {
    const layered = new RegExp(rule('every-module-in-a-layer').from.pathNot!);
    const entries = readdirSync(join(ROOT, 'src'), { withFileTypes: true }).map((e) =>
      e.isDirectory() ? `src/${e.name}/x.ts` : `src/${e.name}`,
    );
    expect(entries.length).toBeGreaterThan(10);
    expect(entries.filter((p) => !layered.test(p))).toEqual([]);
    // And the pattern can fail: a folder no layer names.
    expect(layered.test('src/elsewhere/x.ts')).toBe(false);
  });
});

describe('dependency-cruiser with the configuration', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'cssctl-layers-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** Writes the tree (path → its imports) into a fresh src/ and runs depcruise on it: exit code and output. */
  async function cruise(tree: Record<string, string[]>): Promise<{ code: number; out: string }> {
    const root = mkdtempSync(join(dir, 'tree-'));
    // The configuration reads tsconfig.json (for TypeScript's own resolution of `.js` to `.ts`).
    writeFileSync(
      join(root, 'tsconfig.json'),
      JSON.stringify({ compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext' } }),
    );
    for (const [file, imports] of Object.entries(tree)) {
      mkdirSync(join(root, dirname(file)), { recursive: true });
      const lines = imports.map((to, i) => `import * as m${i} from '${to}';\nvoid m${i};`);
      writeFileSync(join(root, file), `${lines.join('\n')}\nexport const x = 1;\n`);
    }
    try {
      const { stdout } = await promisify(execFile)(
        process.execPath,
        [DEPCRUISE, 'src', '--config', CONFIG, '--output-type', 'err'],
        { cwd: root },
      );
      return { code: 0, out: stdout };
    } catch (err) {
      const e = err as { code?: number; stdout?: string; stderr?: string };
      return { code: e.code ?? -1, out: `${e.stdout ?? ''}${e.stderr ?? ''}` };
    }
  }

  const down = {
    'src/cli.ts': ['./commands/a.js', './help/h.js'],
    'src/commands/a.ts': ['../report/r.js', '../reference/ref.js'],
    'src/reference/ref.ts': ['../help/h.js', '../api/p.js'],
    'src/help/h.ts': ['../core/c.js'],
    'src/report/r.ts': ['../api/p.js'],
    'src/api/p.ts': ['../core/c.js'],
    'src/core/c.ts': [],
  };

  it('arrows that point down pass', { timeout: 60_000 }, async () => {
    const r = await cruise(down);
    expect(r.out).not.toMatch(/error/);
    expect(r.code).toBe(0);
  });

  it(
    'an arrow up from help/ or reference/ (the middle layer), or a folder in no layer, fails',
    { timeout: 60_000 },
    async () => {
      const r = await cruise({
        ...down,
        'src/reference/ref.ts': ['../commands/a.js'],
        'src/help/h.ts': ['../cli.js'],
        'src/report/r.ts': ['../misc/m.js'],
        'src/misc/m.ts': ['../core/c.js'],
      });
      expect(r.code).not.toBe(0);
      expect(r.out).toMatch(/middle-points-down: src\/reference\/ref\.ts → src\/commands\/a\.ts/);
      expect(r.out).toMatch(/middle-points-down: src\/help\/h\.ts → src\/cli\.ts/);
      expect(r.out).toMatch(/nothing-imports-outside-the-layers: src\/report\/r\.ts → src\/misc\/m\.ts/);
      expect(r.out).toMatch(/every-module-in-a-layer: src\/misc\/m\.ts → src\/core\/c\.ts/);
    },
  );
});
