import { describe, expect, it, vi } from 'vitest';
import { onInterrupt, SIGNAL_ECHO_MS } from '../../src/cli.js';

describe('onInterrupt (the SIGINT/SIGTERM handler)', () => {
  const setup = () => {
    let t = 1_000;
    const abort = vi.fn();
    const exit = vi.fn();
    const handler = onInterrupt(abort, exit, () => t);
    return { handler, abort, exit, advance: (ms: number) => (t += ms) };
  };

  it('the first interrupt aborts the command; a second press exits at once', () => {
    const { handler, abort, exit, advance } = setup();
    handler();
    expect(abort).toHaveBeenCalledTimes(1);
    expect(exit).not.toHaveBeenCalled();
    advance(400);
    handler();
    expect(exit).toHaveBeenCalledTimes(1);
    expect(abort).toHaveBeenCalledTimes(1);
  });

  it('the same Ctrl-C arriving twice within a few ms (the process group and a relaunching parent) is one', () => {
    const { handler, abort, exit, advance } = setup();
    handler();
    advance(3);
    handler();
    advance(SIGNAL_ECHO_MS - 4);
    handler();
    expect(abort).toHaveBeenCalledTimes(1);
    expect(exit).not.toHaveBeenCalled();
    advance(SIGNAL_ECHO_MS);
    handler();
    expect(exit).toHaveBeenCalledTimes(1);
  });
});
