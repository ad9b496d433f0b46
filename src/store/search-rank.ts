import { textTokens, tokenMatches, type QueryTerm } from './search-terms.js';

/** A matching message as the ranking sees it: the start of its text and its full length. */
export interface RankCandidate {
  readonly id: number;
  readonly sessionId: string;
  /** The first characters of the text (the words counted). */
  readonly head: string;
  /** Length of the whole text in characters. */
  readonly chars: number;
}

/** A candidate with its score. */
export interface RankedCandidate extends RankCandidate {
  readonly score: number;
}

/** A session's candidates, best first, with the session's score (its best message's). */
export interface RankedSession {
  readonly sessionId: string;
  readonly score: number;
  /** Best first. */
  readonly candidates: readonly RankedCandidate[];
}

/** BM25's usual constants. */
const k1 = 1.2;
const b = 0.75;
/** What a candidate whose counted text holds none of the words scores (the match is past the counted part). */
const floorScore = 1e-9;
/** Least weight of a word, so a word in every candidate still counts its occurrences. */
const minIdf = 0.05;

/**
 * BM25 over the candidates alone: term frequencies counted in each candidate's head, document frequencies and
 * the average length taken from the candidate set. The set is bounded, so the cost is too, whatever the query.
 */
export function scoreCandidates(params: { candidates: readonly RankCandidate[]; terms: readonly QueryTerm[] }): RankedCandidate[] {
  const { candidates, terms } = params;
  if (candidates.length === 0) return [];
  const counts = candidates.map((candidate) => {
    const tokens = textTokens({ text: candidate.head });
    // Words beyond the head are estimated from its density.
    const length = candidate.head.length === 0 ? 1 : Math.max(1, tokens.length * (candidate.chars / candidate.head.length));
    const tf = terms.map((term) => tokens.filter((token) => tokenMatches({ token, term })).length);
    return { length, tf };
  });
  const average = counts.reduce((sum, c) => sum + c.length, 0) / counts.length;
  const n = candidates.length;
  const idf = terms.map((_, i) => {
    const df = counts.filter((c) => (c.tf[i] ?? 0) > 0).length;
    return Math.max(minIdf, Math.log(1 + (n - df + 0.5) / (df + 0.5)));
  });
  return candidates.map((candidate, index) => {
    const c = counts[index];
    let score = 0;
    if (c) {
      const norm = k1 * (1 - b + (b * c.length) / average);
      c.tf.forEach((tf, i) => {
        if (tf > 0) score += (idf[i] ?? 0) * ((tf * (k1 + 1)) / (tf + norm));
      });
    }
    return { ...candidate, score: Math.max(score, floorScore) };
  });
}

/**
 * Groups scored candidates by session: sessions by their best message's score, then by how many of their messages
 * matched, then the newest first (the higher message id); within a session, best message first.
 */
export function rankSessions(params: { scored: readonly RankedCandidate[] }): RankedSession[] {
  const bySession = new Map<string, RankedCandidate[]>();
  for (const candidate of params.scored) {
    const list = bySession.get(candidate.sessionId);
    if (list) list.push(candidate);
    else bySession.set(candidate.sessionId, [candidate]);
  }
  const better = (x: RankedCandidate, y: RankedCandidate): number => y.score - x.score || y.id - x.id;
  const sessions = [...bySession].map(([sessionId, list]) => {
    const sorted = [...list].sort(better);
    return { sessionId, score: sorted[0]?.score ?? 0, candidates: sorted };
  });
  return sessions.sort(
    (x, y) =>
      y.score - x.score || y.candidates.length - x.candidates.length || (y.candidates[0]?.id ?? 0) - (x.candidates[0]?.id ?? 0),
  );
}
