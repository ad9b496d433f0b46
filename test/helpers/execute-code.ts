import assert from 'node:assert/strict';
import { say } from './converse.js';
import { startHarness, type Harness } from './harness.js';

/** A gateway for execute_code turns (no sandbox; no background review: its model calls would take the scripted replies). */
export function startCode(params: { config?: Record<string, unknown>; allow?: 'all' | string[]; env?: Record<string, string> } = {}): Promise<Harness> {
  const tools = (params.config?.['tools'] ?? {}) as Record<string, unknown>;
  return startHarness({
    allow: params.allow ?? 'all',
    ...(params.env ? { env: params.env } : {}),
    config: { ...params.config, tools: { terminal: { sandbox: 'none' }, ...tools }, skills: { review: false, review_interval: 1000 }, memory: { review_interval: 1000 } },
  });
}

/** Scripts one execute_code call with `code`, then `final`; sends a message and resolves with the script's tool result. */
export async function runTurn(h: Harness, args: { code: string; language?: 'python' | 'javascript' }, final = 'done'): Promise<string> {
  const before = h.fake.requests.length;
  h.fake.enqueue({ toolCalls: [{ name: 'execute_code', arguments: args }] }, { text: final });
  assert.equal(await say(h, 'go'), final);
  const request = h.fake.requests[before + 1];
  assert.ok(request, 'the model was called after the script');
  const results = (request.body.messages ?? []).filter((m) => m['role'] === 'tool').map((m) => String(m['content']));
  return results.at(-1) ?? '';
}
