// Builds a store of synthetic conversations for the session_search bench: a Zipf-like vocabulary (a few words are in
// almost every message, most are rare), ~100 messages per session, written in one transaction with prepared statements.
import Database from 'better-sqlite3';
import { openStore } from '../src/store/sqlite-store.js';
import { systemClock } from '../src/core/clock.js';
import { Prng } from '../test/helpers/fuzz.js';

/** What `buildSearchCorpus` made. */
export interface SearchCorpus {
  readonly messages: number;
  readonly sessions: number;
  /** Words by frequency rank (index 0 is the most common). */
  readonly vocabulary: readonly string[];
  /** Seconds the build took. */
  readonly seconds: number;
}

/** A small deterministic PRNG (mulberry32, the tests' Prng), so every run builds the same corpus. */
export function seededRandom(params: { seed: number }): () => number {
  const prng = new Prng({ seed: params.seed });
  return () => prng.next();
}

const syllables = ['ka', 'lo', 'mi', 'ne', 'ru', 'sa', 'ti', 'vo', 'ze', 'pa', 'qu', 'dor', 'len', 'gri', 'fas', 'hub', 'jet', 'wix', 'bel', 'cyn'];

/** `size` distinct pronounceable words; index order is the frequency rank. */
function makeVocabulary(params: { size: number; random: () => number }): string[] {
  const seen = new Set<string>();
  while (seen.size < params.size) {
    const parts = 2 + Math.floor(params.random() * 3);
    let word = '';
    for (let i = 0; i < parts; i += 1) word += syllables[Math.floor(params.random() * syllables.length)];
    seen.add(word);
  }
  return [...seen];
}

/** Cumulative Zipf weights (exponent s) over `size` ranks, for sampling by binary search. */
function zipfTable(params: { size: number; s: number }): Float64Array {
  const table = new Float64Array(params.size);
  let sum = 0;
  for (let rank = 1; rank <= params.size; rank += 1) {
    sum += 1 / rank ** params.s;
    table[rank - 1] = sum;
  }
  for (let i = 0; i < params.size; i += 1) table[i] = (table[i] ?? 0) / sum;
  return table;
}

/** The rank whose cumulative weight first reaches `u`. */
function sample(table: Float64Array, u: number): number {
  let lo = 0;
  let hi = table.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((table[mid] ?? 1) < u) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

const platforms = ['telegram', 'slack', 'discord', 'email', 'sms'];

/**
 * Fills a new store at `path` with `messages` messages over `sessions` sessions (all ended, one per chat key, started
 * a few minutes apart), alternating user and assistant turns of 8-60 words drawn from a Zipf(1) vocabulary.
 */
export function buildSearchCorpus(params: { path: string; messages: number; sessions: number; vocabularySize?: number; seed?: number }): SearchCorpus {
  const started = performance.now();
  openStore({ path: params.path, clock: systemClock }).close();
  const random = seededRandom({ seed: params.seed ?? 11 });
  const vocabulary = makeVocabulary({ size: params.vocabularySize ?? 50_000, random });
  const zipf = zipfTable({ size: vocabulary.length, s: 1 });
  const db = new Database(params.path);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = OFF');
  const insertSession = db.prepare<[string, string, string, number, number]>(
    'INSERT INTO sessions (id, key, parent_session_id, title, started_at, ended_at) VALUES (?, ?, NULL, ?, ?, ?)',
  );
  const insertMessage = db.prepare<[string, string, string, number]>(
    'INSERT INTO messages (session_id, inbox_id, role, content, created_at) VALUES (?, NULL, ?, ?, ?)',
  );
  const perSession = Math.max(1, Math.floor(params.messages / params.sessions));
  const base = Date.UTC(2025, 0, 1);
  const words: string[] = [];
  db.transaction(() => {
    let written = 0;
    for (let s = 0; s < params.sessions && written < params.messages; s += 1) {
      const id = `bench-${String(s).padStart(6, '0')}`;
      const platform = platforms[s % platforms.length] ?? 'telegram';
      const start = base + s * 5 * 60_000;
      const count = s === params.sessions - 1 ? params.messages - written : Math.min(perSession, params.messages - written);
      insertSession.run(id, `bench:${platform}:chat${s % 997}`, `conversation ${s}`, start, start + count * 30_000);
      for (let m = 0; m < count; m += 1) {
        const length = 8 + Math.floor(random() * 53);
        words.length = 0;
        for (let w = 0; w < length; w += 1) words.push(vocabulary[sample(zipf, random())] ?? 'x');
        insertMessage.run(id, m % 2 === 0 ? 'user' : 'assistant', words.join(' '), start + m * 30_000);
      }
      written += count;
    }
  })();
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
  return { messages: params.messages, sessions: params.sessions, vocabulary, seconds: (performance.now() - started) / 1000 };
}
