import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { AdapterCapabilities, ChoiceAnswer } from '../../src/core/adapter.js';
import type { Clock } from '../../src/core/clock.js';
import { until } from './converse.js';
import { startHarness, type Harness } from './harness.js';
import type { ShownMessage } from './test-adapter.js';

/** The tool the model scripts call: the real terminal (its dangerous-command check asks for approval). */
export const TOOL = 'terminal';

/** A gateway whose test platform's owner is user-1, with the given approval mode and buttons (default on). */
export async function startApprovals(
  params: {
    mode?: 'manual' | 'smart' | 'off';
    buttons?: boolean;
    clock?: Clock;
    timeout?: string;
    capabilities?: Partial<AdapterCapabilities>;
    owners?: string[];
    env?: Record<string, string>;
    /** model.context_length (default: the model's); a long conversation compresses past half of it, which takes scripted replies. */
    contextLength?: number;
  } = {},
): Promise<Harness> {
  return startHarness({
    allow: params.owners ?? ['user-1'],
    ...(params.env ? { env: params.env } : {}),
    capabilities: { buttons: params.buttons ?? true, ...params.capabilities },
    // A fake clock paces edits in fake time; on the real one edits are 20 ms apart (these tests measure questions, not pacing).
    ...(params.clock ? { clock: params.clock } : { editIntervalMs: 20 }),
    // No background review: its model calls would take the scripted replies.
    config: {
      tools: { approval: params.mode ?? 'manual', ...(params.timeout !== undefined ? { approval_timeout: params.timeout } : {}) },
      skills: { review: false, review_interval: 1000 },
      memory: { review_interval: 1000 },
      ...(params.contextLength !== undefined ? { model: { context_length: params.contextLength } } : {}),
    },
  });
}

/** Scripts the model: one call of the tool with `command`, then `final` as the answer. */
export function scriptCommand(h: Harness, command: string, final = 'done'): void {
  h.fake.enqueue({ toolCalls: [{ name: TOOL, arguments: { command } }] }, { text: final });
}

/** The approval questions shown in a chat. */
export function questions(h: Harness, chatId = 'chat-1'): ShownMessage[] {
  return h.adapter.shown({ chatId }).filter((m) => m.text.startsWith('⚠️ The agent wants to run a dangerous command'));
}

/** Waits for the `n`th (1-based) approval question in the chat and returns it. */
export async function waitQuestion(h: Harness, n = 1, chatId = 'chat-1'): Promise<ShownMessage> {
  await until(() => questions(h, chatId).length >= n, `approval question ${n}`);
  const q = questions(h, chatId)[n - 1];
  if (q === undefined) throw new Error('no question');
  return q;
}

/** The newest tool result in the model's last request (what the model was told last). */
export function lastToolResult(h: Harness): string {
  return (h.fake.requests.at(-1)?.body.messages ?? []).filter((m) => m['role'] === 'tool').map((m) => String(m['content'])).at(-1) ?? '';
}

/** Whether a message in the chat shows exactly `text` (the answer's message is the turn's first, before its question). */
export function shows(h: Harness, text: string, chatId = 'chat-1'): boolean {
  return h.adapter.shown({ chatId }).some((m) => m.text === text);
}

/** Makes workspace/build (not empty: it holds out/) and returns its path. */
export function makeBuild(h: Harness): string {
  const dir = path.join(h.profile.workspaceDir, 'build');
  mkdirSync(path.join(dir, 'out'), { recursive: true });
  return dir;
}

/** The choice id of a question's button by its label. */
export function choiceOf(message: { choices: readonly { id: string; label: string }[] }, label: string): string {
  const choice = message.choices.find((c) => c.label === label);
  assert.ok(choice, `no ${label} button (${message.choices.map((c) => c.label).join(', ')})`);
  return choice.id;
}

/** Scripts the model to run `command` (then answer `final`), sends `text` from the owner and waits for the `n`th question. */
export async function askToRun(h: Harness, params: { command: string; text: string; final?: string; n?: number }): Promise<ShownMessage> {
  scriptCommand(h, params.command, params.final);
  await h.adapter.inject({ text: params.text });
  return waitQuestion(h, params.n);
}

/** Presses the button labelled `label` on `q` (as the owner), waits until the gateway is idle and returns the press's answer. */
export async function pressAndSettle(h: Harness, q: ShownMessage, label: string): Promise<ChoiceAnswer> {
  const answer = await h.adapter.press({ messageId: q.id, choiceId: choiceOf(q, label) });
  await h.runner.waitIdle();
  return answer;
}
