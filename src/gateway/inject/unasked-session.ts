import type { InjectRequest, InjectTurn } from '../../jobs/inject-request.js';
import type { Store } from '../../store/types.js';
import type { InjectParams, InjectResult } from '../../jobs/ports.js';
import { escapePart } from '../../core/session-key.js';

/** The session of one heartbeat or check run: fresh per scheduled time, in the home channel's chat. */
export function unaskedSessionKey(params: { profile: string; request: InjectRequest; chatId: string }): string {
  const { request } = params;
  return [params.profile, request.platform, params.chatId, `${request.source}=${request.name}`, `at=${request.scheduledFor}`].map(escapePart).join(':');
}

/**
 * The heartbeat's and the checks' way into the gateway: each request becomes a system-started turn (runner.inject) in
 * the home channel of its platform, journaled under a message id unique per scheduled time (a restart replays it,
 * never runs it twice). Rejects when the platform has no home channel (with what to do) or the runner refuses.
 */
export function unaskedInject(params: { store: Store; profileName: () => string; inject: (p: InjectParams) => InjectResult }): InjectTurn {
  return async ({ request }) => {
    const home = params.store.homeChannel({ platform: request.platform });
    if (home === undefined) throw new Error(`no home channel on ${request.platform}: send /sethome in the chat that should get the ${request.source}`);
    const result = params.inject({
      platform: request.platform,
      chat: home.chat,
      text: request.prompt,
      sessionKey: unaskedSessionKey({ profile: params.profileName(), request, chatId: home.chat.id }),
      origin: request.source === 'heartbeat' ? { kind: 'heartbeat' } : { kind: 'check', name: request.name },
      messageId: `${request.source}:${request.name}:${request.scheduledFor}`,
      title: request.source === 'heartbeat' ? 'heartbeat' : `check ${request.name}`,
    });
    if (result.kind === 'refused') throw new Error(result.reason);
  };
}
