import { loadAppConfig } from '../app/config-schema.js';
import { readProfileEnv } from '../config/profile-env.js';
import type { Profile } from '../home/profile.js';
import { Redactor } from '../log/redact.js';
import type { Store } from '../store/types.js';
import { systemClock } from '../core/clock.js';
import { profileFrom, type GlobalOptions } from './context.js';
import { println, type CliIO } from './output.js';
import { withProfileStore } from './profile-store.js';
import { shortSessionId } from '../store/session-id.js';
import { conversationsOf } from '../gateway/sessions/chain.js';

/**
 * The profile's secrets, so nothing printed holds one even if the store does (history from before a secret was
 * known, not yet scrubbed by a gateway): from the config and .env, or from .env alone when the config does not load.
 */
async function profileRedactor(params: { profile: Profile; io: CliIO }): Promise<Redactor> {
  try {
    const loaded = await loadAppConfig({ profile: params.profile, env: params.io.env });
    return new Redactor({ secrets: loaded.secrets });
  } catch {
    const profileEnv = await readProfileEnv({ envPath: params.profile.envPath });
    return new Redactor({ secrets: Object.values(profileEnv.values).filter((value) => value !== '') });
  }
}

async function withStore<T>(params: { options: GlobalOptions; io: CliIO; use: (store: Store, redactor: Redactor) => T }): Promise<T> {
  const profile = profileFrom(params);
  const redactor = await profileRedactor({ profile, io: params.io });
  return withProfileStore({
    profile,
    clock: systemClock,
    missing: 'sessions',
    hint: 'Talk to the agent first: `hermes chat` or `hermes gateway run`.',
    use: (store) => params.use(store, redactor),
  });
}

/** Sessions `hermes sessions list` reads for each shown one (a compressed conversation is one line for its whole chain). */
const LIST_SCAN = 5;

/** `hermes sessions list`: recent conversations, newest first; a compressed one once, as the newest session of its chain (as /sessions). */
export function sessionsList(params: { options: GlobalOptions; io: CliIO; limit: number }): Promise<number> {
  return withStore({
    ...params,
    use: (store, redactor) => {
      const sessions = conversationsOf({ store, sessions: store.listSessions({ limit: Math.max(params.limit * LIST_SCAN, 500) }), limit: params.limit });
      if (sessions.length === 0) println({ stream: params.io.stdout, text: 'no sessions yet' });
      for (const s of sessions) {
        const state = s.endedAt === null ? 'open ' : 'ended';
        println({
          stream: params.io.stdout,
          text: `${shortSessionId({ id: s.id })}  ${state}  ${new Date(s.startedAt).toISOString()}  ${String(s.messageCount).padStart(4)} msgs  ${s.key}  ${redactor.scrub(s.title ?? '')}`,
        });
      }
      return 0;
    },
  });
}

/** `hermes sessions search QUERY`: single messages best first, ranked among the newest matches (FTS5, bounded). */
export function sessionsSearch(params: { options: GlobalOptions; io: CliIO; query: string; limit: number }): Promise<number> {
  return withStore({
    ...params,
    use: (store, redactor) => {
      const hits = store.search({ query: params.query, limit: params.limit });
      if (hits.length === 0) println({ stream: params.io.stdout, text: `no messages match "${redactor.scrub(params.query)}"` });
      for (const h of hits) {
        println({
          stream: params.io.stdout,
          text: `${shortSessionId({ id: h.sessionId })}  ${new Date(h.createdAt).toISOString()}  ${h.role.padEnd(9)}  ${redactor.scrub(h.snippet.replace(/\s+/g, ' '))}`,
        });
      }
      return 0;
    },
  });
}
