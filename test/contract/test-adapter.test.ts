import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { MessageEvent } from '../../src/core/adapter.js';
import { systemClock } from '../../src/core/clock.js';
import { TestAdapter } from '../helpers/test-adapter.js';
import type { ContractPlatform, ContractUser } from './platform.js';
import { adapterContract } from './suite.js';

/** The in-process test adapter as a contract platform: proves the suite itself against the simplest adapter. */
function testPlatform(): ContractPlatform {
  const adapter = new TestAdapter({ clock: systemClock, name: 'contract', capabilities: { maxMessageLength: 500 } });
  let cacheDir = '';
  let last: { user: ContractUser; text: string; messageId: string; media: MessageEvent['media'] } | undefined;
  let n = 0;
  const owner = { id: 'owner-1', chatId: 'dm-owner' };
  const stranger = { id: 'stranger-1', chatId: 'dm-stranger' };
  return {
    owner,
    stranger,
    entry: ({ profile }) => {
      cacheDir = profile.cacheDir;
      return { adapter, allow: [owner.id] };
    },
    userSays: async ({ user, text, file }) => {
      const media: MessageEvent['media'] = [];
      if (file) {
        const dir = path.join(cacheDir, 'contract');
        mkdirSync(dir, { recursive: true });
        const target = path.join(dir, file.fileName);
        writeFileSync(target, file.bytes);
        media.push({ path: target, kind: 'document', fileName: file.fileName, sizeBytes: file.bytes.length });
      }
      n += 1;
      last = { user, text, messageId: `c-${n}`, media };
      await adapter.inject({ text, chatId: user.chatId, senderId: user.id, messageId: last.messageId, media });
    },
    redeliverLast: async () => {
      if (!last) throw new Error('nothing to redeliver');
      await adapter.inject({ text: last.text, chatId: last.user.chatId, senderId: last.user.id, messageId: last.messageId, media: last.media });
    },
    botMessages: ({ chatId }) =>
      adapter.shown({ chatId }).map((m) => {
        const file = m.attachments[0];
        return file ? { text: m.text, file: { name: path.basename(file), bytes: readFileSync(file) } } : { text: m.text };
      }),
    visibleLength: ({ text }) => text.length,
    close: async () => undefined,
  };
}

adapterContract({ name: 'in-process test adapter', setup: async () => testPlatform() });
