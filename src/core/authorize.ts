import type { Sender } from './adapter.js';

/** Who may talk to the agent through one adapter. */
export type AllowList = 'all' | readonly string[];

/** Why a message was not let through. */
export type AuthDecision = { readonly allowed: true } | { readonly allowed: false; readonly reason: 'bot' | 'not-allowed' };

/**
 * Decides whether a message may reach the agent. Senders match by id, by unique username written with
 * '@' (display names never count: anyone can pick one), or by a role they hold written `role:<id>`;
 * messages from bots never do (no bot-to-bot loops).
 */
export function authorize(params: { sender: Sender; allow: AllowList }): AuthDecision {
  const { sender, allow } = params;
  if (sender.isBot) return { allowed: false, reason: 'bot' };
  if (allow === 'all') return { allowed: true };
  const id = sender.id;
  const username = sender.username?.toLowerCase();
  const ok = allow.some((raw) => {
    const entry = raw.trim();
    if (entry.startsWith('@')) return username !== undefined && entry.slice(1).toLowerCase() === username;
    if (entry.startsWith('role:')) return sender.roles?.includes(entry.slice('role:'.length)) ?? false;
    return entry === id;
  });
  return ok ? { allowed: true } : { allowed: false, reason: 'not-allowed' };
}
