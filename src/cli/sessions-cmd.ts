import type { Store } from '../store/types.js';
import { systemClock } from '../util/clock.js';
import { profileFrom, type GlobalOptions } from './context.js';
import { println, type CliIO } from './output.js';
import { withProfileStore } from './profile-store.js';
import { shortSessionId } from '../store/session-id.js';

function withStore<T>(params: { options: GlobalOptions; io: CliIO; use: (store: Store) => T }): T {
  return withProfileStore({
    profile: profileFrom(params),
    clock: systemClock,
    missing: 'sessions',
    hint: 'Talk to the agent first: `hermes chat` or `hermes gateway run`.',
    use: params.use,
  });
}

/** `hermes sessions list`: recent sessions, newest first. */
export function sessionsList(params: { options: GlobalOptions; io: CliIO; limit: number }): number {
  return withStore({
    ...params,
    use: (store) => {
      const sessions = store.listSessions({ limit: params.limit });
      if (sessions.length === 0) println({ stream: params.io.stdout, text: 'no sessions yet' });
      for (const s of sessions) {
        const state = s.endedAt === null ? 'open ' : 'ended';
        println({
          stream: params.io.stdout,
          text: `${shortSessionId({ id: s.id })}  ${state}  ${new Date(s.startedAt).toISOString()}  ${String(s.messageCount).padStart(4)} msgs  ${s.key}  ${s.title ?? ''}`,
        });
      }
      return 0;
    },
  });
}

/** `hermes sessions search QUERY`: full-text search over every message (FTS5). */
export function sessionsSearch(params: { options: GlobalOptions; io: CliIO; query: string; limit: number }): number {
  return withStore({
    ...params,
    use: (store) => {
      const hits = store.search({ query: params.query, limit: params.limit });
      if (hits.length === 0) println({ stream: params.io.stdout, text: `no messages match "${params.query}"` });
      for (const h of hits) {
        println({
          stream: params.io.stdout,
          text: `${shortSessionId({ id: h.sessionId })}  ${new Date(h.createdAt).toISOString()}  ${h.role.padEnd(9)}  ${h.snippet.replace(/\s+/g, ' ')}`,
        });
      }
      return 0;
    },
  });
}
