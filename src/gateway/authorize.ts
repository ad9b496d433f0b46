import type { MessageEvent } from './contracts.js';

/** Who may talk to the agent through one adapter. */
export type AllowList = 'all' | readonly string[];

/** Why a message was not let through. */
export type AuthDecision = { readonly allowed: true } | { readonly allowed: false; readonly reason: 'bot' | 'not-allowed' };

/**
 * Decides whether a message may reach the agent. Senders match by id or by name (with or without '@');
 * messages from bots never do (no bot-to-bot loops).
 */
export function authorize(params: { event: MessageEvent; allow: AllowList }): AuthDecision {
  const { event, allow } = params;
  if (event.sender.isBot) return { allowed: false, reason: 'bot' };
  if (allow === 'all') return { allowed: true };
  const candidates = new Set<string>([event.sender.id.toLowerCase()]);
  if (event.sender.name) candidates.add(event.sender.name.toLowerCase().replace(/^@/, ''));
  const ok = allow.some((entry) => candidates.has(entry.trim().toLowerCase().replace(/^@/, '')));
  return ok ? { allowed: true } : { allowed: false, reason: 'not-allowed' };
}
