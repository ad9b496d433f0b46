import type { Store } from '../../store/types.js';

/** Longest title /title keeps. */
export const MAX_TITLE = 100;

/** `/title`: the session's title; `/title TEXT`: sets it (secrets scrubbed, one line, at most MAX_TITLE characters; a longer one is shortened, and the reply says so). */
export function titleReply(params: { args: string; store: Store; sessionKey: string; scrub: (text: string) => string }): string {
  const { store } = params;
  const session = store.activeSession({ key: params.sessionKey });
  // Control characters and line breaks become spaces; runs of spaces one.
  // eslint-disable-next-line no-control-regex -- control characters in a title become spaces
  const text = params.args.replace(/[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2066-\u2069]+/g, ' ').replace(/\s+/g, ' ').trim();
  if (text === '') {
    if (session?.title) return `Title: ${session.title}`;
    return 'This conversation has no title yet. Set one with /title <text>.';
  }
  const scrubbed = params.scrub(text);
  const shortened = scrubbed.length > MAX_TITLE;
  const title = shortened ? `${scrubbed.slice(0, MAX_TITLE - 1).trimEnd()}…` : scrubbed;
  const target = session ?? store.createSession({ key: params.sessionKey });
  store.setSessionTitle({ sessionId: target.id, title });
  if (!shortened) return `Title set: ${title}`;
  return `Title set, shortened to ${MAX_TITLE} characters (yours had ${scrubbed.length}; titles hold at most ${MAX_TITLE}): ${title}\nSend a shorter /title to change it.`;
}
