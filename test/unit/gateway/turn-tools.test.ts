import assert from 'node:assert/strict';
import { ToolRegistry } from '../../../src/tools/registry.js';
import { test } from 'node:test';
import type { MessageEvent, SystemOrigin } from '../../../src/core/adapter.js';
import type { ToolProgress } from '../../../src/gateway/turns/tool-progress.js';
import type { TurnDeps } from '../../../src/gateway/turns/turn.js';
import { turnToolsFor } from '../../../src/gateway/turns/tools.js';
import type { InboxRow } from '../../../src/store/types.js';
import type { ClarifyCapability, DelegateCapability, MessagingCapability } from '../../../src/tools/capabilities.js';
import { bareToolContext } from '../tools/support.js';

const clarify: ClarifyCapability = { ask: async () => ({ answered: false, reason: 'test' }) };
const messaging: MessagingCapability = { list: async () => [], send: async () => 'sent' };
const delegate: DelegateCapability = { run: async () => [] };

/** The deps turnToolsFor reads (the turn's capability factories and the base tool context); the rest of a turn's deps are not touched. */
function deps(): TurnDeps {
  const { signal: _signal, ...toolContext } = bareToolContext();
  const partial: Pick<TurnDeps, 'clarify' | 'messaging' | 'delegate' | 'toolContext'> = {
    toolContext,
    clarify: () => clarify,
    messaging: () => messaging,
    delegate: () => delegate,
  };
  return partial as TurnDeps;
}

function row(system?: SystemOrigin): InboxRow {
  const event: MessageEvent = {
    platform: 'test',
    messageId: 'm1',
    chat: { id: 'chat-1', kind: 'dm' },
    sender: { id: 'u1', name: 'U', isBot: false },
    text: 'go',
    media: [],
    mentioned: true,
    receivedAt: 0,
    ...(system === undefined ? {} : { system }),
  };
  return { id: 1, sessionKey: 'test:test:chat-1', event } as InboxRow;
}

const progress = {} as ToolProgress;

test('clarify only in turns a person started: a job run, the heartbeat and a check get send_message and delegate_task but no clarify', () => {
  const user = turnToolsFor({ deps: deps(), row: row(), progress, sessionId: () => 's1', registry: () => new ToolRegistry() });
  assert.equal(user.clarify, clarify);
  assert.equal(user.messaging, messaging);
  assert.equal(user.delegate, delegate);
  assert.equal(user.startedBy, undefined);
  const systems: SystemOrigin[] = [{ kind: 'job', jobId: 'j1', runId: 1 }, { kind: 'heartbeat' }, { kind: 'check', name: 'disk' }];
  for (const system of systems) {
    const tools = turnToolsFor({ deps: deps(), row: row(system), progress, sessionId: () => 's1', registry: () => new ToolRegistry() });
    assert.equal(tools.clarify, undefined, `${system.kind} got clarify`);
    assert.equal(tools.messaging, messaging, `${system.kind} has no send_message`);
    assert.equal(tools.delegate, delegate);
    assert.equal(tools.startedBy, system.kind);
  }
});
