import type { DeliveryTarget } from '../store/job-types.js';

/** One entry of a `deliver` text before it is checked against the chats the profile knows. */
export type DeliverSpec =
  | { readonly kind: 'origin' }
  | { readonly kind: 'home'; readonly platform?: string }
  | { readonly kind: 'chat'; readonly platform: string; readonly chatId: string; readonly threadId?: string };

/** What `parseDeliver` returns. */
export type DeliverParseResult = { readonly ok: true; readonly specs: readonly DeliverSpec[] } | { readonly ok: false; readonly error: string };

const DELIVER_FORMS = 'accepted: "origin" (this chat, the default), "home" (the home channel set with /sethome), "home:<platform>", "<platform>:<chat>[:<thread>]", or several comma-separated';

/**
 * Reads a `deliver` text ("origin", "home", "home:slack", "telegram:12345", "slack:C1:1700.1", comma-separated; empty
 * means origin) into specs, duplicates dropped. Only the form is checked: whether the profile talks with that chat
 * is the caller's check (it knows the sessions and home channels).
 */
export function parseDeliver(params: { text: string | undefined }): DeliverParseResult {
  const entries = (params.text ?? '').split(',').map((e) => e.trim()).filter((e) => e !== '');
  if (entries.length === 0) return { ok: true, specs: [{ kind: 'origin' }] };
  const specs: DeliverSpec[] = [];
  const seen = new Set<string>();
  for (const entry of entries) {
    const lower = entry.toLowerCase();
    let spec: DeliverSpec | undefined;
    if (lower === 'origin') spec = { kind: 'origin' };
    else if (lower === 'home') spec = { kind: 'home' };
    else {
      const [platform, chatId, threadId, ...rest] = entry.split(':');
      if (platform === undefined || chatId === undefined || rest.length > 0 || !/^[a-z]+$/i.test(platform) || chatId === '' || threadId === '') {
        return { ok: false, error: `"${entry}" is not a delivery target; ${DELIVER_FORMS}.` };
      }
      if (platform.toLowerCase() === 'home') {
        if (threadId !== undefined) return { ok: false, error: `"${entry}" is not a delivery target; ${DELIVER_FORMS}.` };
        spec = { kind: 'home', platform: chatId.toLowerCase() };
      } else {
        spec = { kind: 'chat', platform: platform.toLowerCase(), chatId, ...(threadId !== undefined ? { threadId } : {}) };
      }
    }
    const key = JSON.stringify(spec);
    if (!seen.has(key)) specs.push(spec);
    seen.add(key);
  }
  return { ok: true, specs };
}

/** The key a target's delivery is recorded under (`recordDelivery`'s `target`): "telegram:42", "slack:C1:1700.1", "home:slack". */
export function targetKey(params: { target: DeliveryTarget }): string {
  const { target } = params;
  if (target.kind === 'home') return `home:${target.platform}`;
  return [target.platform, target.chat.id, ...(target.chat.threadId !== undefined ? [target.chat.threadId] : [])].join(':');
}

/** A target as listings show it: "this chat (telegram:42)", "home channel of slack", "slack:C1:1700.1". */
export function describeTarget(params: { target: DeliveryTarget }): string {
  const { target } = params;
  if (target.kind === 'home') return `home channel of ${target.platform}`;
  const key = targetKey({ target });
  return target.origin ? `origin (${key})` : key;
}
