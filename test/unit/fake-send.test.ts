import { describe, expect, it } from 'vitest';
import { FakeClock } from '../helpers/fake-clock.js';
import { req, scripted } from '../helpers/fake-send.js';

describe('the scripted transport verifies its stubs', () => {
  // `it.fails` passes only if the test fails: here, because a scripted reply was never asked for.
  it.fails('fails a test that leaves a scripted reply unused', async () => {
    const t = scripted(new FakeClock(), [{ status: 200 }, { status: 500 }]);
    await t.send(req());
  });

  it.fails('fails a test that sends more requests than were scripted', async () => {
    const t = scripted(new FakeClock(), [{ status: 200 }]);
    await t.send(req());
    await t.send(req());
  });

  it('passes a test that uses every reply', async () => {
    const t = scripted(new FakeClock(), [{ status: 200 }, { status: 204 }]);
    expect((await t.send(req())).status).toBe(200);
    expect((await t.send(req())).status).toBe(204);
    expect(t.remaining()).toBe(0);
  });
});
