import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { startHarness, type Harness } from '../helpers/harness.js';
import type { ContractPlatform } from './platform.js';

/** Waits until `check` holds (polling), or fails naming `what`. */
async function until(params: { check: () => boolean; what: string; timeoutMs?: number }): Promise<void> {
  const deadline = Date.now() + (params.timeoutMs ?? 10_000);
  while (!params.check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${params.what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function withGateway(params: { setup: () => Promise<ContractPlatform>; run: (ctx: { platform: ContractPlatform; h: Harness }) => Promise<void> }): Promise<void> {
  const platform = await params.setup();
  let h: Harness | undefined;
  try {
    h = await startHarness({
      adapters: (p) => [platform.entry(p)],
      withHttp: platform.needsHttp === true,
      config: { stream: { edit_interval: '250ms' } },
    });
    if (platform.needsHttp === true) {
      const address = h.runner.httpAddress;
      if (address === null) throw new Error('the gateway HTTP server is not listening');
      platform.useGateway?.({ port: address.port });
    }
    await params.run({ platform, h });
  } finally {
    await h?.stop();
    await platform.close();
  }
}

/**
 * The shared adapter contract: every adapter, driven through its real SDK against its platform's fake,
 * must pass these through the whole gateway.
 */
export function adapterContract(params: { name: string; setup: () => Promise<ContractPlatform> }): void {
  const { setup } = params;
  describe(`adapter contract: ${params.name}`, () => {
    test('declares its capabilities', async () => {
      await withGateway({
        setup,
        run: async ({ platform, h }) => {
          const entry = platform.entry({ profile: h.profile, clock: h.clock, logger: h.logger });
          const caps = entry.adapter.capabilities;
          assert.ok(Number.isInteger(caps.maxMessageLength) && caps.maxMessageLength >= 160);
          for (const key of ['edit', 'threads', 'typing', 'reactions', 'media'] as const) assert.equal(typeof caps[key], 'boolean', key);
          assert.ok(['none', 'markdown', 'html', 'mrkdwn'].includes(caps.markup));
          if (caps.typing) assert.equal(typeof entry.adapter.typing, 'function', 'typing capability without typing()');
          if (caps.reactions) assert.equal(typeof entry.adapter.react, 'function', 'reactions capability without react()');
        },
      });
    });

    test('send, edit (also to the same text) and typing work on their own', async () => {
      await withGateway({
        setup,
        run: async ({ platform, h }) => {
          const adapter = platform.entry({ profile: h.profile, clock: h.clock, logger: h.logger }).adapter;
          // The platform must know the chat: the owner writes first, as a person would.
          h.fake.setResponder(() => ({ text: 'hello back' }));
          await platform.userSays({ user: platform.owner, text: 'hello' });
          await until({ check: () => platform.botMessages({ chatId: platform.owner.chatId }).length === 1, what: 'the first answer' });
          await h.runner.waitIdle();
          const chat = { id: platform.owner.chatId, kind: 'dm' as const };
          const sent = await adapter.send({ chat, text: 'first version' });
          assert.ok(sent.messageId !== '');
          if (adapter.capabilities.edit) {
            await adapter.edit({ chat, messageId: sent.messageId, text: 'second version' });
            await adapter.edit({ chat, messageId: sent.messageId, text: 'second version' });
            // A client that fetches what it is sent (the HTTP API's outbox) sees the edit moments later.
            await until({ check: () => platform.botMessages({ chatId: platform.owner.chatId }).at(-1)?.text === 'second version', what: 'the edited message', timeoutMs: 5000 });
          } else {
            // Edit declared unsupported: calling it anyway is a clear error, and what was sent stays as it was.
            await assert.rejects(adapter.edit({ chat, messageId: sent.messageId, text: 'second version' }), /edit/i);
            assert.equal(platform.botMessages({ chatId: platform.owner.chatId }).at(-1)?.text, 'first version');
          }
          if (adapter.capabilities.typing && adapter.typing) await adapter.typing({ chat });
        },
      });
    });

    test('answers a DM; the final text is exact and no message is duplicated', async () => {
      await withGateway({
        setup,
        run: async ({ platform, h }) => {
          const words = Array.from({ length: 30 }, (_, i) => `word${i}`);
          h.fake.enqueue({ chunks: words.map((w, i) => (i ? ` ${w}` : w)), chunkDelayMs: 20 });
          await platform.userSays({ user: platform.owner, text: 'say thirty words' });
          await until({ check: () => platform.botMessages({ chatId: platform.owner.chatId }).some((m) => m.text === words.join(' ')), what: 'the final text' });
          await h.runner.waitIdle();
          assert.equal(platform.botMessages({ chatId: platform.owner.chatId }).length, 1);
        },
      });
    });

    test('splits a long answer at its declared limit without losing text', async () => {
      await withGateway({
        setup,
        run: async ({ platform, h }) => {
          if (platform.wholeReplies === true) {
            // One reply per message however long: a long answer arrives whole and exact, in one message.
            const long: string[] = [];
            for (let i = 0; long.join('\n\n').length < 12_000; i++) long.push(`Paragraph ${i}: ${'lorem ipsum dolor '.repeat(8).trim()}.`);
            h.fake.enqueue({ text: long.join('\n\n') });
            await platform.userSays({ user: platform.owner, text: 'write a lot' });
            await until({ check: () => platform.botMessages({ chatId: platform.owner.chatId }).some((m) => m.text === long.join('\n\n')), what: 'the whole answer' });
            await h.runner.waitIdle();
            assert.equal(platform.botMessages({ chatId: platform.owner.chatId }).length, 1);
            return;
          }
          const entry = platform.entry({ profile: h.profile, clock: h.clock, logger: h.logger });
          const limit = entry.adapter.capabilities.maxMessageLength;
          const paragraphs: string[] = [];
          for (let i = 0; paragraphs.join('\n\n').length < limit * 2.5; i++) paragraphs.push(`Paragraph ${i}: ${'lorem ipsum dolor '.repeat(8).trim()}.`);
          h.fake.enqueue({ text: paragraphs.join('\n\n') });
          await platform.userSays({ user: platform.owner, text: 'write a lot' });
          await until({ check: () => platform.botMessages({ chatId: platform.owner.chatId }).some((m) => m.text.includes(`Paragraph ${paragraphs.length - 1}:`)), what: 'the last paragraph' });
          await h.runner.waitIdle();
          const shown = platform.botMessages({ chatId: platform.owner.chatId });
          assert.ok(shown.length >= 3, `expected at least 3 messages, got ${shown.length}`);
          for (const m of shown) assert.ok(platform.visibleLength({ text: m.text }) <= limit, `a message of ${platform.visibleLength({ text: m.text })} > ${limit}`);
          const all = shown.map((m) => m.text).join('\n');
          for (let i = 0; i < paragraphs.length; i++) assert.ok(all.includes(`Paragraph ${i}:`), `paragraph ${i} lost`);
        },
      });
    });

    test('a file in reaches the agent, a MEDIA: file goes out', async () => {
      await withGateway({
        setup,
        run: async ({ platform, h }) => {
          if (platform.noFiles === true) return;
          const bytes = Buffer.from('%PDF-1.4 contract test file\n');
          const outFile = platform.outboundFile ?? { name: 'report.txt', bytes: Buffer.from('the report') };
          const reportPath = path.join(h.profile.workspaceDir, outFile.name);
          writeFileSync(reportPath, outFile.bytes);
          h.fake.enqueue({ text: `Got it. Here is mine.\nMEDIA:${reportPath}` });
          await platform.userSays({ user: platform.owner, text: 'see attached', file: { bytes, fileName: 'notes.pdf' } });
          await until({ check: () => platform.botMessages({ chatId: platform.owner.chatId }).some((m) => m.file !== undefined), what: 'the file reply' });
          await h.runner.waitIdle();
          const userMessage = (h.fake.requests[0]?.body.messages ?? []).filter((m) => m['role'] === 'user').at(-1);
          const attached = /\[Attached file: (\S+)/.exec(String(userMessage?.['content']))?.[1];
          assert.ok(attached, `the agent saw no file: ${String(userMessage?.['content'])}`);
          assert.ok(attached.startsWith(h.profile.cacheDir), 'downloaded into the profile cache');
          assert.ok(existsSync(attached));
          assert.deepEqual(readFileSync(attached), bytes);
          const out = platform.botMessages({ chatId: platform.owner.chatId }).find((m) => m.file !== undefined);
          assert.equal(out?.file?.name, outFile.name);
          assert.deepEqual(out?.file?.bytes, outFile.bytes);
        },
      });
    });

    test('a redelivered message is processed once', async () => {
      await withGateway({
        setup,
        run: async ({ platform, h }) => {
          h.fake.setResponder(() => ({ text: 'once' }));
          await platform.userSays({ user: platform.owner, text: 'hello' });
          await until({ check: () => platform.botMessages({ chatId: platform.owner.chatId }).length === 1, what: 'the answer' });
          await platform.redeliverLast();
          await new Promise((r) => setTimeout(r, 500));
          await h.runner.waitIdle();
          assert.equal(h.fake.requests.length, 1);
          assert.equal(platform.botMessages({ chatId: platform.owner.chatId }).length, 1);
        },
      });
    });

    test('a sender who is not allowed never reaches the agent', async () => {
      await withGateway({
        setup,
        run: async ({ platform, h }) => {
          await platform.userSays({ user: platform.stranger, text: 'let me in' });
          h.fake.setResponder(() => ({ text: 'for the owner' }));
          await platform.userSays({ user: platform.owner, text: 'hi' });
          await until({ check: () => platform.botMessages({ chatId: platform.owner.chatId }).length === 1, what: "the owner's answer" });
          await h.runner.waitIdle();
          assert.equal(h.fake.requests.length, 1);
          assert.equal(platform.botMessages({ chatId: platform.stranger.chatId }).length, 0);
        },
      });
    });

    test('buttons: choices are shown, a press reaches the gateway\'s choice router (never the agent), an unclaimed press retires them', async () => {
      await withGateway({
        setup,
        run: async ({ platform, h }) => {
          const adapter = platform.entry({ profile: h.profile, clock: h.clock, logger: h.logger }).adapter;
          if (adapter.capabilities.buttons !== true) return;
          const { buttonsOf, press } = platform;
          assert.ok(buttonsOf && press, 'a platform with buttons lets the suite read and press them');
          h.fake.setResponder(() => ({ text: 'hello back' }));
          await platform.userSays({ user: platform.owner, text: 'hello' });
          await until({ check: () => platform.botMessages({ chatId: platform.owner.chatId }).length === 1, what: 'the first answer' });
          await h.runner.waitIdle();
          const seen: { senderId: string; choiceId: string; messageId: string }[] = [];
          const remove = h.runner.choices.register({
            prefix: 'ctest',
            handle: async (event) => {
              seen.push({ senderId: event.sender.id, choiceId: event.choiceId, messageId: event.messageId });
              return event.choiceId === 'ctest:a' ? { notice: 'noted' } : undefined;
            },
          });
          try {
            const chat = { id: platform.owner.chatId, kind: 'dm' as const };
            const sent = await adapter.send({ chat, text: 'Pick one', choices: [{ id: 'ctest:a', label: 'A' }, { id: 'ctest:gone', label: 'B' }] });
            assert.deepEqual(buttonsOf({ chatId: chat.id, messageId: sent.messageId }), ['ctest:a', 'ctest:gone']);
            await press({ user: platform.owner, chatId: chat.id, messageId: sent.messageId, choiceId: 'ctest:a' });
            await until({ check: () => seen.length === 1, what: 'the press at the choice router' });
            assert.deepEqual(seen[0], { senderId: platform.owner.id, choiceId: 'ctest:a', messageId: sent.messageId });
            assert.equal(buttonsOf({ chatId: chat.id, messageId: sent.messageId }).length, 2, 'a claimed press keeps the buttons');
            await press({ user: platform.owner, chatId: chat.id, messageId: sent.messageId, choiceId: 'ctest:gone' });
            await until({ check: () => buttonsOf({ chatId: chat.id, messageId: sent.messageId }).length === 0, what: 'the unclaimed question retired' });
            await h.runner.waitIdle();
            assert.equal(h.fake.requests.length, 1, 'presses never reach the agent');
          } finally {
            remove();
          }
        },
      });
    });
  });
}
