// The e2e harness itself (issue 21): input written to a command that exits without reading it is no error.
import { describe, expect, it } from 'vitest';
import { runCli } from './harness.js';

describe('runCli', () => {
  it('a command that exits before reading a large input: its result, and no EPIPE left unhandled', async () => {
    // 4 MiB is far more than a pipe holds, so the write is still going when `--version` has exited.
    const res = await runCli(['--version'], { PATH: process.env.PATH }, { input: 'x'.repeat(4 << 20) });
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/\d+\.\d+\.\d+/);
  });
});
