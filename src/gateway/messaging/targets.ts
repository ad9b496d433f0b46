import { resolveTargets as checkTargets } from '../../jobs/resolve-targets.js';
import { resolveTargets as lookUpTargets } from '../../jobs/run-targets.js';
import type { Store } from '../../store/types.js';
import type { MessageTarget, TurnOrigin } from '../../tools/capabilities.js';
import type { ChatRef } from '../../core/adapter.js';

/** Most entries `send_message`'s list gives (home channels first, then known chats, newest first). */
export const LISTED_TARGETS = 30;

/** A target `send_message` may deliver to, made concrete: the chat it means now, or why it is refused. */
export type MessageTargetResult =
  | {
      readonly ok: true;
      /** `<platform>:<chat>[:<thread>]` of the chat it goes to (a home channel's chat, too). */
      readonly key: string;
      readonly platform: string;
      readonly chat: ChatRef;
      /** True when it is the chat the turn answers. */
      readonly own: boolean;
    }
  | { readonly ok: false; readonly error: string };

/** "telegram:42", "slack:C1:1700.1": how a chat is named as a target. */
export function chatTargetKey(params: { platform: string; chat: Pick<ChatRef, 'id' | 'threadId'> }): string {
  const { platform, chat } = params;
  return [platform, chat.id, ...(chat.threadId === undefined ? [] : [chat.threadId])].join(':');
}

/**
 * The targets `send_message` lists: the home channels (set with /sethome) and the chats senders the profile lets in
 * wrote from, of platforms whose adapter runs here.
 */
export function listMessageTargets(params: { store: Store; platforms: readonly string[] }): MessageTarget[] {
  const { store, platforms } = params;
  const runs = (platform: string): boolean => platforms.includes(platform);
  const known = store.knownChats({ limit: LISTED_TARGETS }).filter((k) => runs(k.platform));
  const titles = new Map(known.map((k) => [chatTargetKey(k), k.title]));
  const homes: MessageTarget[] = store
    .homeChannels()
    .filter((h) => runs(h.platform))
    .map((h) => {
      const key = chatTargetKey(h);
      const name = titles.get(key);
      return { target: `home:${h.platform}`, platform: h.platform, title: name === undefined ? `home channel ${key}` : `home channel ${key} (${name})`, home: true };
    });
  const chats: MessageTarget[] = known.map((k) => ({ target: chatTargetKey(k), platform: k.platform, ...(k.title === undefined ? {} : { title: k.title }), home: false }));
  return [...homes, ...chats].slice(0, LISTED_TARGETS);
}

/**
 * Checks one `send_message` target against what the profile knows, as a job's `deliver` is checked (jobs/resolve-targets):
 * `<platform>:<chat>[:<thread>]` of a known chat or home channel, `home:<platform>`, a bare platform name (its home
 * channel, as in Hermes Agent), `home` (the turn's platform) or `origin` (the turn's chat). Anything else is refused with
 * the valid targets; so is a platform whose adapter does not run here.
 */
export function resolveMessageTarget(params: { store: Store; target: string; origin?: TurnOrigin | undefined; platforms: readonly string[] }): MessageTargetResult {
  const { store, origin } = params;
  const text = params.target.trim();
  if (text.includes(',')) return { ok: false, error: 'send_message takes one target per call; call it once for each chat' };
  const bare = /^[a-z]+$/i.test(text) && !['origin', 'home'].includes(text.toLowerCase());
  const checked = checkTargets({ store, deliver: bare ? `home:${text.toLowerCase()}` : text, origin });
  if (!checked.ok) return { ok: false, error: checked.error };
  const [resolved] = lookUpTargets({ store, targets: checked.targets });
  if (resolved === undefined || checked.targets.length !== 1) return { ok: false, error: `"${text}" is not one chat; name a single target` };
  if (!resolved.ok) return { ok: false, error: resolved.error };
  if (!params.platforms.includes(resolved.platform)) return { ok: false, error: `no ${resolved.platform} adapter runs in this gateway, so nothing can be sent there now` };
  const key = chatTargetKey({ platform: resolved.platform, chat: resolved.chat });
  const own = origin !== undefined && key === chatTargetKey({ platform: origin.platform, chat: { id: origin.chatId, ...(origin.threadId === undefined ? {} : { threadId: origin.threadId }) } });
  return { ok: true, key, platform: resolved.platform, chat: resolved.chat, own };
}
