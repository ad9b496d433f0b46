import { FakeClock } from '../../helpers/fake-clock.js';
import type { AdapterCapabilities } from '../../../src/core/adapter.js';
import { ChatPacer } from '../../../src/gateway/delivery/pacer.js';
import type { ExistingMessage, JournalRow } from '../../../src/gateway/delivery/sent-messages.js';
import { StreamDelivery } from '../../../src/gateway/delivery/stream.js';
import { MemoryAdapter } from './memory-adapter.js';

/** Pacing interval every stream test uses. */
export const INTERVAL_MS = 1000;
/** Cursor every stream test uses. */
export const CURSOR = ' ▉';

/** A StreamDelivery wired to a MemoryAdapter, a real ChatPacer and a FakeClock, with the journal captured. */
export interface Harness {
  readonly clock: FakeClock;
  readonly adapter: MemoryAdapter;
  readonly delivery: StreamDelivery;
  readonly journal: (JournalRow & { at: number })[];
}

/** Builds a harness. */
export function harness(params: {
  capabilities?: Partial<AdapterCapabilities>;
  latencyMs?: number;
  existing?: ExistingMessage[];
  signal?: AbortSignal;
} = {}): Harness {
  const clock = new FakeClock();
  const adapter = new MemoryAdapter({ clock, ...(params.capabilities ? { capabilities: params.capabilities } : {}), latencyMs: params.latencyMs ?? 0 });
  const pacer = new ChatPacer({ clock, intervalMs: INTERVAL_MS, maxChats: 10 });
  const journal: (JournalRow & { at: number })[] = [];
  const delivery = new StreamDelivery({
    adapter,
    chat: { id: 'chat-1', kind: 'dm' },
    replyToId: 'in-1',
    pacer,
    chatKey: 'memory:chat-1',
    clock,
    cursor: CURSOR,
    journal: { record: (row) => journal.push({ ...row, at: clock.now() }) },
    ...(params.existing ? { existing: params.existing } : {}),
    ...(params.signal ? { signal: params.signal } : {}),
  });
  return { clock, adapter, delivery, journal };
}

/** Pushes `text` in deltas of `size` characters, one every `everyMs` of fake time. */
export async function stream(params: { h: Harness; text: string; size: number; everyMs: number }): Promise<void> {
  for (let i = 0; i < params.text.length; i += params.size) {
    params.h.delivery.push(params.text.slice(i, i + params.size));
    await params.h.clock.advance(params.everyMs);
  }
}

/** The texts the platform shows for the sent messages, in send order. */
export function shownTexts(h: Harness): string[] {
  return h.adapter.sends.map((s) => h.adapter.messages.get(s.messageId)?.text ?? '');
}
