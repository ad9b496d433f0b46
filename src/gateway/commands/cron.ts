import { jobsShortText } from '../../jobs/actions-format.js';
import type { JobStore } from '../../store/job-store.js';
import { authorize } from '../../core/authorize.js';
import type { MessageEvent } from '../../core/adapter.js';
import type { AdapterEntry } from '../../core/platform.js';

/** Longest /cron reply when the platform's limit is unknown. */
const CRON_REPLY_MAX = 3500;

/**
 * `/sethome`: makes the chat the command came from its platform's home channel (what `home` targets deliver to). In
 * a group or channel only an owner (a person on the platform's allowlist in config) may, so nobody else in the room
 * redirects the owner's jobs; in a direct chat anyone the gateway lets in sets their own chat.
 */
export function sethomeReply(params: { store: Pick<JobStore, 'setHomeChannel' | 'homeChannel'>; event: MessageEvent; owner: boolean }): string {
  const { store, event } = params;
  if (event.chat.kind !== 'dm' && !params.owner) {
    return `Only the owner (a person in this platform's allowed_users in config) can make a ${event.chat.kind} the home channel.`;
  }
  const before = store.homeChannel({ platform: event.platform });
  const chat = { id: event.chat.id, kind: event.chat.kind, ...(event.chat.threadId !== undefined ? { threadId: event.chat.threadId } : {}) };
  const same = before !== undefined && before.chat.id === chat.id && before.chat.threadId === chat.threadId;
  store.setHomeChannel({ platform: event.platform, chat });
  const where = [event.platform, chat.id, ...(chat.threadId !== undefined ? [chat.threadId] : [])].join(':');
  if (same) return `This chat (${where}) already is the ${event.platform} home channel.`;
  const replaced = before === undefined ? '' : ` (it was ${[event.platform, before.chat.id, ...(before.chat.threadId !== undefined ? [before.chat.threadId] : [])].join(':')})`;
  return `This chat (${where}) is now the ${event.platform} home channel${replaced}: jobs delivering to "home" send their results here.`;
}

/** `/cron`: the profile's jobs, one line each, cut to the platform's message length (an SMS stays one message). */
export function cronReply(params: { store: Pick<JobStore, 'listJobs'>; maxMessageLength: number | undefined }): string {
  return jobsShortText({ store: params.store, maxChars: Math.min(params.maxMessageLength ?? CRON_REPLY_MAX, CRON_REPLY_MAX) });
}

/** Whether the sender is an owner of the platform (on its allowlist in config, not 'all'), and the platform's message limit. */
export function senderStanding(params: { entry: AdapterEntry | undefined; event: MessageEvent }): { owner: boolean; maxMessageLength: number | undefined } {
  const allow = params.entry?.allow ?? 'all';
  const owner = allow !== 'all' && authorize({ sender: params.event.sender, allow }).allowed;
  return { owner, maxMessageLength: params.entry?.adapter.capabilities.maxMessageLength };
}
