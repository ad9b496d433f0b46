import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { MessageEvent } from '../../../src/core/adapter.js';

/** A valid inbound event; override any field. */
export function makeEvent(overrides: Partial<MessageEvent> = {}): MessageEvent {
  return {
    platform: 'telegram',
    messageId: 'm1',
    chat: { id: 'chat-1', kind: 'dm' },
    sender: { id: 'user-1', name: 'Ada', isBot: false },
    text: 'hello there',
    media: [],
    mentioned: false,
    receivedAt: 1_700_000_000_000,
    ...overrides,
  };
}

/** A fresh temp directory and a function that removes it. */
export function makeTempDir(): { dir: string; cleanup: () => void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hermes-'));
  return { dir, cleanup: () => fs.rmSync(dir, { recursive: true, force: true }) };
}
