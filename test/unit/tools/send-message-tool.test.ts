import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sendMessageTool } from '../../../src/tools/builtin/send-message.js';
import type { MessagingCapability } from '../../../src/tools/capabilities.js';
import { ToolError } from '../../../src/core/errors.js';
import { bareToolContext } from './support.js';

/** A messaging capability that records the sends it is asked for. */
function recording(): { messaging: MessagingCapability; sends: { target: string; message: string }[] } {
  const sends: { target: string; message: string }[] = [];
  return {
    sends,
    messaging: {
      list: async () => [
        { target: 'home:slack', platform: 'slack', title: 'home channel slack:C1', home: true },
        { target: 'telegram:42', platform: 'telegram', title: 'Olga', home: false },
        { target: 'slack:C9', platform: 'slack', home: false },
      ],
      send: async ({ target, message }) => {
        sends.push({ target, message });
        return `Sent to ${target}.`;
      },
    },
  };
}

test('send_message without the capability (a child, a host without the gateway) is not available and sends nothing', async () => {
  await assert.rejects(sendMessageTool.handler({ action: 'send', target: 'telegram:42', message: 'hi' }, bareToolContext()), (e) => e instanceof ToolError && /not available here/.test(e.message));
  const { messaging, sends } = recording();
  await assert.rejects(sendMessageTool.handler({ action: 'send', target: 'telegram:42', message: 'hi' }, { ...bareToolContext(), messaging, depth: 1 }), /not available here/);
  assert.equal(sends.length, 0);
});

test('send_message list shows each target with its platform and title, the turn’s own chat marked', async () => {
  const { messaging } = recording();
  const ctx = { ...bareToolContext(), messaging, origin: { platform: 'telegram', chatId: '42', chatKind: 'dm' as const } };
  const text = await sendMessageTool.handler({ action: 'list' }, ctx);
  assert.deepEqual(text.split('\n').slice(1), ['- home:slack (slack) — home channel slack:C1', '- telegram:42 (telegram) — Olga [this chat]', '- slack:C9 (slack)']);
});

test('send_message send needs a target and a message', async () => {
  const { messaging, sends } = recording();
  const ctx = { ...bareToolContext(), messaging };
  await assert.rejects(sendMessageTool.handler({ action: 'send', message: 'hi' }, ctx), /needs a target/);
  await assert.rejects(sendMessageTool.handler({ action: 'send', target: 'telegram:42', message: '  ' }, ctx), /needs a message/);
  assert.equal(sends.length, 0);
  assert.equal(await sendMessageTool.handler({ action: 'send', target: 'telegram:42', message: 'hi' }, ctx), 'Sent to telegram:42.');
  assert.deepEqual(sends, [{ target: 'telegram:42', message: 'hi' }]);
});

test('send_message list with no chat known yet says how a chat becomes a target', async () => {
  const messaging: MessagingCapability = { list: async () => [], send: async () => assert.fail('nothing is sent') };
  const text = await sendMessageTool.handler({ action: 'list' }, { ...bareToolContext(), messaging });
  assert.equal(text, 'No chat is known yet: a chat becomes a target once someone allowed writes to the bot from it (or /sethome is sent there).');
});
