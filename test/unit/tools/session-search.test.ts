import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sessionSearchTool } from '../../../src/tools/builtin/session-search.js';
import type { SessionSearchCapability } from '../../../src/search/capability.js';
import { type ToolContext } from '../../../src/tools/tool.js';
import { ToolError } from '../../../src/core/errors.js';
import { systemClock } from '../../../src/core/clock.js';

function context(extra: Partial<ToolContext>): ToolContext {
  return { workspace: '/tmp', confineToWorkspace: true, signal: new AbortController().signal, clock: systemClock, terminal: { timeoutMs: 1000, maxOutputBytes: 1000 }, ...extra };
}

test('session_search: Hermes argument shape, parallel-safe, the current session passed as the one to leave out', async () => {
  assert.equal(sessionSearchTool.name, 'session_search');
  assert.equal(sessionSearchTool.parallel, 'safe');
  assert.ok(sessionSearchTool.input.safeParse({ query: 'deploy*' }).success);
  assert.ok(sessionSearchTool.input.safeParse({ query: 'x', limit: 2 }).success);
  assert.ok(!sessionSearchTool.input.safeParse({ limit: 2 }).success, 'query is required');
  assert.ok(!sessionSearchTool.input.safeParse({ query: '' }).success);
  assert.match(sessionSearchTool.description, /7,000 characters/, 'the cap is documented for the model');
  const calls: Parameters<SessionSearchCapability['search']>[0][] = [];
  const sessionSearch: SessionSearchCapability = {
    search: async (params) => {
      calls.push(params);
      return 'recalled';
    },
  };
  const ctx = context({ sessionId: 'session-now', sessionSearch });
  assert.equal(await sessionSearchTool.handler({ query: 'locker code', limit: 2 }, ctx), 'recalled');
  assert.equal(calls[0]?.query, 'locker code');
  assert.equal(calls[0]?.limit, 2);
  assert.equal(calls[0]?.excludeSessionId, 'session-now');
  assert.equal(calls[0]?.signal, ctx.signal);
  await sessionSearchTool.handler({ query: 'x' }, context({ sessionSearch }));
  assert.equal('excludeSessionId' in (calls[1] ?? {}), false, 'no session, nothing to leave out');
  assert.equal('limit' in (calls[1] ?? {}), false);
});

test('session_search without a store says so as a tool error', async () => {
  await assert.rejects(sessionSearchTool.handler({ query: 'x' }, context({})), (error: unknown) => error instanceof ToolError && /not available/.test(error.message));
});
