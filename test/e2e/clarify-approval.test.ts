import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { test } from 'node:test';
import type { CapturedRequest, ScriptedReply } from '../fakes/openai/server.js';
import { makeBuild, startApprovals, waitQuestion } from '../helpers/approvals.js';
import { waitClarify } from '../helpers/clarify.js';
import { until } from '../helpers/converse.js';

const GROUP = 'group-1';

/** The first user message of a request's conversation (which of the two turns asks). */
function firstUserText(request: CapturedRequest): string {
  return String((request.body.messages ?? []).find((m) => m['role'] === 'user')?.['content'] ?? '');
}

function roundOf(request: CapturedRequest): number {
  return (request.body.messages ?? []).filter((m) => m['role'] === 'assistant').length;
}

function lastTool(request: CapturedRequest | undefined): string {
  return (request?.body.messages ?? []).filter((m) => m['role'] === 'tool').map((m) => String(m['content'])).at(-1) ?? '';
}

test('a clarify question and an approval question waiting in the same chat: /approve answers the approval, the next message answers clarify', async () => {
  // A group: each member has a session of their own, so one turn can wait for an approval while another waits for clarify.
  const h = await startApprovals({ owners: ['user-1', 'user-2'] });
  try {
    const build = makeBuild(h);
    h.fake.setResponder((request): ScriptedReply => {
      const logo = firstUserText(request).includes('make a logo');
      const round = roundOf(request);
      if (logo) return round === 0 ? { toolCalls: [{ name: 'clarify', arguments: { question: 'Which colour?', choices: ['Red', 'Blue'] } }] } : { text: 'Blue it is' };
      return round === 0 ? { toolCalls: [{ name: 'terminal', arguments: { command: 'rm -rf build' } }] } : { text: 'build cleaned' };
    });
    await h.adapter.inject({ text: 'clean the build', chatId: GROUP, kind: 'group', senderId: 'user-2' });
    const approval = await waitQuestion(h, 1, GROUP);
    await h.adapter.inject({ text: 'make a logo', chatId: GROUP, kind: 'group', senderId: 'user-1' });
    const question = await waitClarify(h, 1, GROUP);
    const logoRequests = (): CapturedRequest[] => h.fake.requests.filter((r) => firstUserText(r).includes('make a logo'));
    const buildRequests = (): CapturedRequest[] => h.fake.requests.filter((r) => firstUserText(r).includes('clean the build'));

    // /approve from the owner answers the approval question, not the clarify one (a command is never an answer).
    await h.adapter.inject({ text: '/approve', chatId: GROUP, kind: 'group', senderId: 'user-1' });
    await until(() => h.adapter.shown({ chatId: GROUP }).some((m) => m.text === 'build cleaned'), 'the approved turn finished');
    assert.equal(existsSync(build), false, 'the approved command did not run');
    assert.doesNotMatch(lastTool(buildRequests().at(-1)), /denied|not approved/i);
    assert.match(approval.text, /Allowed once/i);
    assert.equal(logoRequests().length, 1, '/approve ended the clarify wait');
    assert.ok(question.choices.length === 2, 'the clarify question lost its buttons');

    // The owner's next message answers the clarify question and starts no turn of its own.
    const before = h.fake.requests.length;
    await h.adapter.inject({ text: 'blue', chatId: GROUP, kind: 'group', senderId: 'user-1' });
    await until(() => h.adapter.shown({ chatId: GROUP }).some((m) => m.text === 'Blue it is'), 'the clarify turn finished');
    await h.runner.waitIdle();
    assert.equal(h.fake.requests.length, before + 1);
    assert.equal(lastTool(logoRequests().at(-1)), 'Blue');
    assert.match(question.text, /answered: Blue/);
  } finally {
    await h.stop();
  }
});
