import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import type { ChatRef, MessageEvent, PlatformAdapter } from '../../src/core/adapter.js';
import { ChatPacer } from '../../src/gateway/delivery/pacer.js';
import type { DeliveryJournal } from '../../src/gateway/delivery/sent-messages.js';
import { StreamDelivery, type DeliveryResult } from '../../src/gateway/delivery/stream.js';
import { turnJournal, turnLeftovers } from '../../src/gateway/turns/journal.js';
import { openStore } from '../../src/store/sqlite-store.js';
import type { Store } from '../../src/store/types.js';
import { systemClock } from '../../src/core/clock.js';

/** Where a crash cuts the first send of a reply. */
export type CrashPoint = 'before the call' | 'accepted, answer not recorded' | 'after recording';

/** An adapter as one gateway process has it; `stop` ends that process's connection. */
export interface ProcessSide {
  readonly adapter: PlatformAdapter;
  stop(): Promise<void>;
}

/** One platform under test: a chat with a user's message in it, and fresh adapters as each gateway process builds them. */
export interface CrashPlatform {
  readonly chat: ChatRef;
  /** The user's message the reply answers (gateway message id). */
  readonly replyToId: string;
  /** A new process's adapter (real SDK against the fake). */
  startProcess(params: { cacheDir: string }): Promise<ProcessSide>;
  /** Makes the platform accept the next text send but hold its answer. */
  holdFirstSend(): { reached: Promise<void>; release(): void };
  /** The bot's messages the chat shows, oldest first. */
  visible(): { id: string; text: string }[];
  close(): Promise<void>;
}

/** A platform call that never returns: the process died right before making it. */
const never = <T>(): Promise<T> => new Promise<T>(() => undefined);

/** The adapter with one kind of platform call cut off (never made, never answered). */
function cutOff(params: { real: PlatformAdapter; call: 'send' | 'edit' | undefined }): PlatformAdapter {
  const { real, call } = params;
  const resolveSend = real.resolveSend?.bind(real);
  return {
    name: real.name,
    capabilities: real.capabilities,
    start: (p) => real.start(p),
    send: (m) => (call === 'send' ? never() : real.send(m)),
    edit: (r) => (call === 'edit' ? never() : real.edit(r)),
    ...(resolveSend ? { resolveSend } : {}),
  };
}

/** Waits (real time, bounded) until `check` holds. */
async function until(params: { what: string; check: () => boolean; timeoutMs?: number }): Promise<void> {
  const deadline = Date.now() + (params.timeoutMs ?? 10_000);
  while (!params.check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${params.what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** What a crash-point run shows. */
export interface CrashRun {
  /** The bot's messages when the first process died. */
  readonly atCrash: { id: string; text: string }[];
  /** What the replay's delivery reported. */
  readonly result: DeliveryResult;
  /** Send intents still journaled after the replay. */
  readonly intentsLeft: number;
}

/**
 * Streams a reply in a first "process" and kills it at `point` of the first send: from then on nothing it does
 * reaches the journal and it makes no more platform calls, as after kill -9. A second process (fresh adapter,
 * same store file) then replays the turn the way runTurn does (the outbox's messages and the pending send intents)
 * and finishes the reply with `full`.
 */
export async function crashFirstSend(params: { platform: CrashPlatform; point: CrashPoint; full: string }): Promise<CrashRun> {
  const { platform, point } = params;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'hermes-crash-point-'));
  const logger = pino({ level: 'silent' });
  let store: Store | undefined;
  const sides: ProcessSide[] = [];
  const holds: { release(): void }[] = [];
  try {
    store = openStore({ path: path.join(dir, 'state.db'), clock: systemClock });
    const first = await platform.startProcess({ cacheDir: dir });
    sides.push(first);
    const event: MessageEvent = {
      platform: first.adapter.name,
      messageId: platform.replyToId,
      chat: platform.chat,
      sender: { id: 'user-1', isBot: false },
      text: 'answer me',
      media: [],
      mentioned: true,
      receivedAt: systemClock.now(),
    };
    const inboxId = store.recordInbound({ event, sessionKey: 'crash-point' }).row.id;
    const live = turnJournal({ store, inboxId, event });
    let dead = false;
    // After the crash the first process is gone: nothing more reaches the store.
    const journal: DeliveryJournal = {
      record: (row) => { if (!dead) live.record(row); },
      intend: (intent) => { if (!dead) live.intend?.(intent); },
      claimedIds: () => live.claimedIds?.() ?? new Set(),
    };
    const cut = point === 'before the call' ? 'send' : point === 'after recording' ? 'edit' : undefined;
    const process1 = new AbortController();
    const delivery = (adapter: PlatformAdapter, journalOf: DeliveryJournal, signal: AbortSignal | undefined, left?: ReturnType<typeof turnLeftovers>): StreamDelivery =>
      new StreamDelivery({
        adapter,
        chat: event.chat,
        replyToId: event.messageId,
        pacer: new ChatPacer({ clock: systemClock, intervalMs: 50, maxChats: 10 }),
        chatKey: event.chat.id,
        clock: systemClock,
        cursor: ' ▉',
        journal: journalOf,
        logger,
        ...(left ? { existing: left.existing, pending: left.pending } : {}),
        ...(signal ? { signal } : {}),
      });
    const firstDelivery = delivery(cutOff({ real: first.adapter, call: cut }), journal, process1.signal);
    const s = store;
    if (point === 'accepted, answer not recorded') {
      const held = platform.holdFirstSend();
      holds.push(held);
      firstDelivery.push('INFL-');
      await held.reached;
    } else if (point === 'before the call') {
      firstDelivery.push('INFL-');
      await until({ what: 'the send intent', check: () => s.sendIntentsFor({ inboxId }).length > 0 });
    } else {
      firstDelivery.push('INFL-');
      await until({ what: 'the first message recorded', check: () => s.outboundFor({ inboxId }).length > 0 });
      firstDelivery.push(' and');
    }
    // kill -9
    dead = true;
    process1.abort();
    const atCrash = platform.visible();
    await first.stop();

    const second = await platform.startProcess({ cacheDir: dir });
    sides.push(second);
    const replay = delivery(second.adapter, turnJournal({ store, inboxId, event }), undefined, turnLeftovers({ store, inboxId }));
    replay.push(params.full);
    const result = await replay.finish();
    return { atCrash, result, intentsLeft: store.sendIntentsFor({ inboxId }).length };
  } finally {
    for (const hold of holds) hold.release();
    for (const side of sides) await side.stop().catch(() => undefined);
    store?.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
