import type { MessageEvent } from './adapter.js';

/**
 * The key that decides which session a message belongs to:
 * profile + platform + chat (+ thread) (+ sender, in groups and channels, so people don't share a context).
 */
export function sessionKeyFor(params: { profile: string; event: Pick<MessageEvent, 'platform' | 'chat' | 'sender'> }): string {
  const { profile, event } = params;
  const parts = [profile, event.platform, event.chat.id];
  if (event.chat.threadId !== undefined) parts.push(`thread=${event.chat.threadId}`);
  if (event.chat.kind !== 'dm') parts.push(`user=${event.sender.id}`);
  return parts.map(escapePart).join(':');
}

/** Keeps ':' inside a part from being read as a separator. */
export function escapePart(part: string): string {
  return part.replace(/%/g, '%25').replace(/:/g, '%3A');
}

/** The platform a session key names (its second part, after the profile), e.g. "telegram"; "" for a key without one. */
export function platformOfSessionKey(params: { key: string }): string {
  const part = params.key.split(':')[1] ?? '';
  return part.replace(/%3A/g, ':').replace(/%25/g, '%');
}
