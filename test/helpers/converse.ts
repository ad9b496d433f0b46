import assert from 'node:assert/strict';
import type { Harness } from './harness.js';

/** Polls until `check` holds; fails the test after 10 s naming `what`. */
export async function until(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!check()) {
    assert.ok(Date.now() < deadline, `timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Sends one message through the test adapter and resolves with the reply shown for it. */
export async function say(h: Harness, text: string): Promise<string> {
  const before = h.adapter.shown().length;
  await h.adapter.inject({ text });
  await h.runner.waitIdle();
  await until(() => h.adapter.shown().length > before, `the reply to "${text.slice(0, 20)}"`);
  return h.adapter.shown().at(-1)?.text ?? '';
}
