import { z } from 'zod';
import type { Store } from '../../store/types.js';
import type { Clock } from '../../core/clock.js';
import { authorize, type AllowList } from '../../core/authorize.js';
import type { ChatRef } from '../../core/adapter.js';

/** The store cursor the owners' chats are kept under (one JSON object, by platform). */
const CURSOR = 'pairing:owner-chats';

/** A remembered chat is written again at most this often while it stays the same (for "most recent"). */
const REFRESH_MS = 3_600_000;

/** One platform's owner chat: the DM where an allowlisted person last wrote to the bot. */
const ownerChatSchema = z.object({
  chatId: z.string().min(1),
  senderId: z.string().min(1),
  username: z.string().min(1).optional(),
  at: z.number(),
});
type OwnerChat = z.infer<typeof ownerChatSchema>;

/** Where a notice to the owner goes. */
export interface OwnerChatRef {
  readonly platform: string;
  readonly chat: ChatRef;
}

/**
 * Where the gateway can reach its owner outside a turn. The owner of a platform is a person on its allowlist
 * (config's allowed_users, never a paired sender); their chat is the DM they last wrote to the bot from,
 * remembered in the store so it survives restarts. A person taken off the allowlist is no longer used.
 */
export class OwnerChats {
  private readonly store: Store;
  private readonly clock: Clock;
  private readonly allowOf: (platform: string) => AllowList | undefined;
  private cache: Record<string, OwnerChat> | undefined;

  /** `allowOf` gives a platform's current allowlist (undefined when it does not run). */
  constructor(params: { store: Store; clock: Clock; allowOf: (platform: string) => AllowList | undefined }) {
    this.store = params.store;
    this.clock = params.clock;
    this.allowOf = params.allowOf;
  }

  /** Notes a DM from a person the allowlist (not 'all') let in; writes the store only when something changed. */
  seen(params: { platform: string; chat: ChatRef; senderId: string; username?: string }): void {
    const { platform, chat, senderId } = params;
    if (chat.kind !== 'dm' || this.allowOf(platform) === 'all') return;
    const chats = this.load();
    const now = this.clock.now();
    const known = chats[platform];
    if (known && known.chatId === chat.id && known.senderId === senderId && now - known.at < REFRESH_MS) return;
    const next = { ...chats, [platform]: { chatId: chat.id, senderId, ...(params.username !== undefined ? { username: params.username } : {}), at: now } };
    // Remembered only once stored: a write the disk refuses is tried again with the next message.
    this.store.setCursor({ name: CURSOR, value: JSON.stringify(next) });
    this.cache = next;
  }

  /** The owner's chat on `platform`, else the one an owner used most recently on another running platform. */
  find(params: { platform: string }): OwnerChatRef | undefined {
    const usable = Object.entries(this.load()).filter(([platform, known]) => this.stillOwner({ platform, known }));
    const same = usable.find(([platform]) => platform === params.platform);
    const [platform, known] = same ?? usable.sort((a, b) => b[1].at - a[1].at)[0] ?? [];
    return platform === undefined || known === undefined ? undefined : { platform, chat: { id: known.chatId, kind: 'dm' } };
  }

  /** Whether the remembered person is still on the platform's allowlist. */
  private stillOwner(params: { platform: string; known: OwnerChat }): boolean {
    const allow = this.allowOf(params.platform);
    if (allow === undefined || allow === 'all') return false;
    const { senderId, username } = params.known;
    return authorize({ sender: { id: senderId, ...(username !== undefined ? { username } : {}), isBot: false }, allow }).allowed;
  }

  private load(): Record<string, OwnerChat> {
    if (this.cache) return this.cache;
    let parsed: unknown;
    try {
      parsed = JSON.parse(this.store.getCursor({ name: CURSOR }) ?? '{}');
    } catch {
      parsed = {};
    }
    const result = z.record(z.string(), ownerChatSchema).safeParse(parsed);
    this.cache = result.success ? result.data : {};
    return this.cache;
  }
}
