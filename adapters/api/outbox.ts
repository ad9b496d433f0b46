/** One message the gateway sent to a session while no request of it waited for one. */
export interface OutboxMessage {
  /** The adapter's message id (an edit of it replaces its text, or brings it back with the new text once collected). */
  readonly id: string;
  /** Unix seconds when it was (last) put here. */
  readonly created: number;
  readonly text: string;
}

/** Messages kept per session; the oldest give way. */
export const OUTBOX_PER_SESSION = 100;
/** Sessions with messages kept; the one written to least recently gives way. */
export const OUTBOX_SESSIONS = 1000;

/**
 * What the gateway sends an API session on its own (a job's result, a heartbeat, an approval or clarify question,
 * a notice, the answer to a message a restart cut short): HTTP cannot push, so it waits here, in memory (a restart
 * forgets it), bounded, until the client collects it with GET /v1/hermes/outbox.
 */
export class Outbox {
  private readonly sessions = new Map<string, Map<string, OutboxMessage>>();

  /** Keeps a message sent to `chatId`, or replaces the text of one kept (an edit). */
  put(params: { chatId: string; id: string; text: string; created: number }): void {
    const { chatId } = params;
    const kept = this.sessions.get(chatId) ?? new Map<string, OutboxMessage>();
    // Written to now: the session moves to the end (the least recently written goes first).
    this.sessions.delete(chatId);
    this.sessions.set(chatId, kept);
    const existing = kept.get(params.id);
    kept.set(params.id, { id: params.id, created: existing?.created ?? params.created, text: params.text });
    while (kept.size > OUTBOX_PER_SESSION) {
      const oldest = kept.keys().next();
      if (oldest.done) break;
      kept.delete(oldest.value);
    }
    while (this.sessions.size > OUTBOX_SESSIONS) {
      const oldest = this.sessions.keys().next();
      if (oldest.done) break;
      this.sessions.delete(oldest.value);
    }
  }

  /** The session's kept messages, oldest first, taken out. */
  take(params: { chatId: string }): OutboxMessage[] {
    const kept = this.sessions.get(params.chatId);
    this.sessions.delete(params.chatId);
    return kept === undefined ? [] : [...kept.values()];
  }
}
