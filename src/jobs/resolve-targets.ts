import type { JobStore } from '../store/job-store.js';
import type { TurnOrigin } from '../tools/capabilities.js';
import type { DeliveryTarget, KnownChat } from '../store/job-types.js';
import { parseDeliver, targetKey } from './targets.js';

/** How many known chats a refusal lists (newest first) before "and N more". */
export const VALID_TARGETS_SHOWN = 10;
/** How many known chats are looked at when checking a target. */
const KNOWN_CHATS_LOOKED_AT = 500;

/** What `resolveTargets` returns. */
export type ResolveTargetsResult = { readonly ok: true; readonly targets: readonly DeliveryTarget[] } | { readonly ok: false; readonly error: string };

/** The store queries the target check uses. */
export type TargetStore = Pick<JobStore, 'homeChannel' | 'homeChannels' | 'knownChats'>;

/** "telegram:42", "slack:C1:1700.1" for a chat the profile knows. */
function chatKey(params: { known: Pick<KnownChat, 'platform' | 'chat'> }): string {
  const { platform, chat } = params.known;
  return [platform, chat.id, ...(chat.threadId !== undefined ? [chat.threadId] : [])].join(':');
}

/** The valid targets in a refusal: origin (when there is one), home targets that are set, known chats (capped). */
export function validTargetsText(params: { store: TargetStore; origin?: TurnOrigin | undefined }): string {
  const { store, origin } = params;
  const homes = store.homeChannels().map((h) => `home:${h.platform}`);
  const chats = store.knownChats({ limit: KNOWN_CHATS_LOOKED_AT }).map((known) => chatKey({ known }));
  const shown = chats.slice(0, VALID_TARGETS_SHOWN);
  const more = chats.length > shown.length ? [`and ${chats.length - shown.length} more`] : [];
  const list = [...(origin !== undefined ? ['origin'] : []), ...homes, ...shown, ...more];
  return list.length === 0 ? 'no chat is known yet (write to the bot from the chat first)' : `valid targets: ${list.join(', ')}`;
}

/**
 * Reads a `deliver` text and checks every entry against what the profile knows: `origin` needs the turn's chat,
 * `home`/`home:<platform>` a home channel set with /sethome, `<platform>:<chat>[:<thread>]` a chat a sender it lets
 * in wrote from (or a home channel). Anything else is refused with the valid targets.
 */
export function resolveTargets(params: { store: TargetStore; deliver: string | undefined; origin?: TurnOrigin | undefined }): ResolveTargetsResult {
  const { store, origin } = params;
  const parsed = parseDeliver({ text: params.deliver });
  if (!parsed.ok) return { ok: false, error: `${parsed.error} (${validTargetsText({ store, origin })})` };
  const targets: DeliveryTarget[] = [];
  for (const spec of parsed.specs) {
    if (spec.kind === 'origin') {
      if (origin === undefined) return { ok: false, error: `there is no chat to deliver "origin" to here; name a target (${validTargetsText({ store })})` };
      targets.push({
        kind: 'chat',
        platform: origin.platform,
        chat: { id: origin.chatId, kind: origin.chatKind, ...(origin.threadId !== undefined ? { threadId: origin.threadId } : {}) },
        origin: true,
      });
    } else if (spec.kind === 'home') {
      const platform = spec.platform ?? origin?.platform;
      if (platform === undefined) return { ok: false, error: `"home" needs a platform here: write home:<platform> (${validTargetsText({ store })})` };
      if (store.homeChannel({ platform }) === undefined) {
        return { ok: false, error: `${platform} has no home channel yet: send /sethome in the ${platform} chat that should get these messages, then try again (${validTargetsText({ store, origin })})` };
      }
      targets.push({ kind: 'home', platform });
    } else {
      const wanted = `${spec.platform}:${spec.chatId}${spec.threadId !== undefined ? `:${spec.threadId}` : ''}`;
      const candidates: Pick<KnownChat, 'platform' | 'chat'>[] = [
        ...store.homeChannels(),
        ...store.knownChats({ limit: KNOWN_CHATS_LOOKED_AT }),
        ...(origin !== undefined ? [{ platform: origin.platform, chat: { id: origin.chatId, kind: origin.chatKind, ...(origin.threadId !== undefined ? { threadId: origin.threadId } : {}) } }] : []),
      ];
      const match = candidates.find((known) => chatKey({ known }) === wanted);
      if (match === undefined) return { ok: false, error: `"${wanted}" is not a chat this profile talks with (${validTargetsText({ store, origin })})` };
      const isOrigin = origin !== undefined && wanted === chatKey({ known: { platform: origin.platform, chat: { id: origin.chatId, kind: origin.chatKind, ...(origin.threadId !== undefined ? { threadId: origin.threadId } : {}) } } });
      targets.push({ kind: 'chat', platform: match.platform, chat: match.chat, origin: isOrigin });
    }
  }
  // "origin" and the same chat written out are one target.
  const unique = new Map<string, DeliveryTarget>();
  for (const target of targets) if (!unique.has(targetKey({ target }))) unique.set(targetKey({ target }), target);
  return { ok: true, targets: [...unique.values()] };
}
