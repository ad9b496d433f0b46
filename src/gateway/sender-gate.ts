import type { Logger } from 'pino';
import type { Store } from '../store/types.js';
import type { Clock } from '../util/clock.js';
import { authorize, type AllowList } from './authorize.js';
import type { MessageEvent, Sender } from './contracts.js';
import type { GatewayReplies } from './gateway-replies.js';
import { Pairing, pairingReply } from './pairing.js';
import type { AdapterEntry } from './runner-types.js';

/**
 * Who may reach the agent: a sender on the adapter's allowlist or one the owner approved by pairing. An unknown
 * sender in a DM is offered a pairing code (when the adapter says so), once per code, so there are no reply storms.
 */
export class SenderGate {
  private readonly pairing: Pairing;
  private readonly logger: Logger;
  private readonly clock: Clock;
  private readonly replies: GatewayReplies;
  private readonly profileName: () => string;

  constructor(params: { store: Store; clock: Clock; logger: Logger; replies: GatewayReplies; profileName: () => string }) {
    this.pairing = new Pairing({ store: params.store, clock: params.clock });
    this.logger = params.logger;
    this.clock = params.clock;
    this.replies = params.replies;
    this.profileName = params.profileName;
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
    if (decision.allowed) return true;
    if (decision.reason === 'not-allowed' && this.pairing.isApproved({ platform: event.platform, senderId: event.sender.id })) return true;
    this.logger.info({ platform: event.platform, senderId: event.sender.id, reason: decision.reason }, 'message ignored: sender not authorized');
    if (decision.reason === 'not-allowed' && entry.unauthorized === 'pair' && event.chat.kind === 'dm') this.offerPairing({ event });
    return false;
  }

  private offerPairing(params: { event: MessageEvent }): void {
    const { event } = params;
    const result = this.pairing.request({ platform: event.platform, senderId: event.sender.id, senderName: event.sender.name ?? null, chatId: event.chat.id });
    if (result.kind === 'full') {
      this.logger.warn({ platform: event.platform, senderId: event.sender.id }, 'pairing refused: too many pending requests; approve or wait for them to expire');
      return;
    }
    if (result.kind === 'pending') return;
    this.logger.info({ platform: event.platform, senderId: event.sender.id, code: result.code }, 'pairing code sent to an unknown sender');
    const text = pairingReply({ code: result.code, platform: event.platform, profileName: this.profileName(), expiresAt: result.expiresAt, now: this.clock.now() });
    this.replies.send({ event, text, what: 'pairing code' });
  }
}
