import type { Logger } from 'pino';
import type { Store } from '../../store/types.js';
import type { Clock } from '../../core/clock.js';
import { authorize, type AllowList } from '../../core/authorize.js';
import type { MessageEvent, Sender } from '../../core/adapter.js';
import type { GatewayReplies } from '../delivery/replies.js';
import { OwnerChats } from '../owner/chats.js';
import { Pairing, pairingReply } from './pairing/pairing.js';
import { MAX_STRANGER_REPLIES_PER_WINDOW, StrangerReplyBudget } from './pairing/budget.js';
import { strangerRepliesPausedNotice } from './pairing/reply.js';
import { PairingNotices } from './pairing/notices.js';
import { PairingReminders } from './pairing/reminders.js';
import type { AdapterEntry } from '../../core/platform.js';

/**
 * Who may reach the agent: a sender on the adapter's allowlist or one the owner approved by pairing. An unknown
 * sender in a DM is offered a pairing code (when the adapter says so): one live code per sender, repeated to them
 * when they ask again (at most once per `PairingReminders` interval, so there are no reply storms), and the owner
 * is told in their chat (see `PairingNotices`, `OwnerChats`). At most `MAX_STRANGER_REPLIES_PER_WINDOW` code replies go
 * out per platform and hour (SMS replies cost money); past that codes are still made and the owner is told once.
 */
export class SenderGate {
  private readonly pairing: Pairing;
  private readonly logger: Logger;
  private readonly clock: Clock;
  private readonly replies: GatewayReplies;
  private readonly profileName: () => string;
  private readonly owners: OwnerChats;
  private readonly notices: PairingNotices;
  private readonly reminders: PairingReminders;
  /** Bounds the code replies strangers get per platform and hour (SMS replies cost money). */
  private readonly budget: StrangerReplyBudget;

  /** `allowOf` gives a running platform's allowlist (to find its owner); `signal` ends pending notices on stop. */
  constructor(params: {
    store: Store;
    clock: Clock;
    logger: Logger;
    replies: GatewayReplies;
    profileName: () => string;
    allowOf: (platform: string) => AllowList | undefined;
    signal: AbortSignal;
  }) {
    this.pairing = new Pairing({ store: params.store, clock: params.clock });
    this.logger = params.logger;
    this.clock = params.clock;
    this.replies = params.replies;
    this.profileName = params.profileName;
    this.owners = new OwnerChats({ store: params.store, clock: params.clock, allowOf: params.allowOf });
    this.reminders = new PairingReminders({ clock: params.clock });
    this.notices = new PairingNotices({
      clock: params.clock,
      logger: params.logger,
      signal: params.signal,
      profileName: params.profileName,
      deliver: (notice) => this.tellOwner(notice),
    });
    this.budget = new StrangerReplyBudget({ clock: params.clock });
  }

  /** Sends `text` to the owner's chat (see OwnerChats.find); false when no chat of theirs is known. */
  private tellOwner(params: { platform: string; text: string; what: string }): boolean {
    const owner = this.owners.find({ platform: params.platform });
    if (owner === undefined) return false;
    this.replies.notify({ platform: owner.platform, chat: owner.chat, text: params.text, what: params.what });
    return true;
  }

  /** Whether a sender passes the allowlist or was approved by pairing (bots are never approved by pairing). */
  mayTalk(params: { platform: string; sender: Sender; allow: AllowList }): boolean {
    if (authorize({ sender: params.sender, allow: params.allow }).allowed) return true;
    return !params.sender.isBot && this.pairing.isApproved({ platform: params.platform, senderId: params.sender.id });
  }

  /** True when the event's sender may talk; otherwise logs it, offers pairing where that applies, and returns false. */
  admit(params: { event: MessageEvent; entry: AdapterEntry }): boolean {
    const { event, entry } = params;
    const decision = authorize({ sender: event.sender, allow: entry.allow });
    if (decision.allowed) {
      const { username } = event.sender;
      this.owners.seen({ platform: event.platform, chat: event.chat, senderId: event.sender.id, ...(username !== undefined ? { username } : {}) });
      return true;
    }
    if (decision.reason === 'not-allowed' && this.pairing.isApproved({ platform: event.platform, senderId: event.sender.id })) return true;
    this.logger.info({ platform: event.platform, senderId: event.sender.id, reason: decision.reason }, 'message ignored: sender not authorized');
    if (decision.reason === 'not-allowed' && entry.unauthorized === 'pair' && event.chat.kind === 'dm') this.offerPairing({ event });
    return false;
  }

  private offerPairing(params: { event: MessageEvent }): void {
    const { event } = params;
    const { platform, sender } = event;
    const result = this.pairing.request({ platform, senderId: sender.id, senderName: sender.name ?? null, chatId: event.chat.id });
    if (result.kind === 'pending' && !this.reminders.due({ platform, senderId: sender.id, code: result.code })) return;
    if (result.kind === 'new') {
      for (const dropped of result.dropped) {
        this.logger.info({ platform, senderId: dropped.senderId, code: dropped.code }, 'pairing code dropped: the oldest of too many pending ones');
      }
      this.reminders.due({ platform, senderId: sender.id, code: result.code });
      this.logger.info({ platform, senderId: sender.id, code: result.code }, 'pairing code sent to an unknown sender');
      this.notices.told({ request: { platform, code: result.code, expiresAt: result.expiresAt, asker: { senderId: sender.id, name: sender.name ?? null, username: sender.username ?? null } } });
    } else {
      this.logger.info({ platform, senderId: sender.id, code: result.code }, 'pairing code repeated to a sender who asked again');
    }
    const verdict = this.budget.take({ platform });
    if (verdict.kind === 'refuse') {
      if (verdict.first) this.repliesPaused({ platform, until: verdict.until });
      return;
    }
    const text = pairingReply({ code: result.code, platform, profileName: this.profileName(), expiresAt: result.expiresAt, now: this.clock.now() });
    this.replies.send({ event, text, what: 'pairing code' });
  }

  /** Once per window: logs that strangers on `platform` get no code replies for now, and tells the owner. */
  private repliesPaused(params: { platform: string; until: number }): void {
    const { platform, until } = params;
    const max = MAX_STRANGER_REPLIES_PER_WINDOW;
    const told = this.tellOwner({ platform, what: 'pairing reply pause note to the owner', text: strangerRepliesPausedNotice({ platform, max, until, profileName: this.profileName() }) });
    this.logger.warn({ platform, max, until: new Date(until).toISOString(), ownerTold: told }, 'pairing codes not sent to strangers for the rest of the hour: too many asked (codes are still made; `hermes pairing list` shows them)');
  }
}
