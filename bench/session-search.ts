// `npm run bench:search` (and the end of `npm run bench`): session_search over a store of 1,000,000 messages.
// Builds the store (Zipf-like vocabulary, ~10k sessions) in a temp dir, then times the session_search path
// (store query + formatting, no auxiliary model) for rare, mid and very common words and multi-word queries, next to
// the store's `search` (what `hermes sessions search` runs: the same bounded candidates, single messages) on the same
// data. Goal: p95 ≤ 50 ms for any word.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { sessionRecall } from '../src/search/session-recall.js';
import { openStore } from '../src/store/sqlite-store.js';
import { systemClock } from '../src/core/clock.js';
import { buildSearchCorpus, seededRandom } from './search-corpus.js';
import { percentile } from './stats.js';

/** The goal for any query class. */
const GOAL_P95_MS = 50;

/** Figures of one query class. */
export interface SearchFigures {
  readonly name: string;
  readonly samples: number;
  readonly p50: number;
  readonly p95: number;
  readonly max: number;
}

/** p50/p95/max of timings in ms. */
function figures(params: { name: string; ms: readonly number[] }): SearchFigures {
  const sorted = [...params.ms].sort((a, b) => a - b);
  return { name: params.name, samples: sorted.length, p50: percentile({ sorted, p: 50 }), p95: percentile({ sorted, p: 95 }), max: sorted.at(-1) ?? Number.NaN };
}

/** One printed line: the class, its figures, and whether p95 meets the goal. */
function line(params: { label: string; f: SearchFigures }): string {
  const { f } = params;
  const verdict = f.p95 <= GOAL_P95_MS ? 'ok' : 'OVER';
  return `${params.label.padEnd(8)} ${f.name.padEnd(30)} n=${String(f.samples).padStart(3)}  p50 ${f.p50.toFixed(1).padStart(6)} ms  p95 ${f.p95.toFixed(1).padStart(6)} ms  max ${f.max.toFixed(1).padStart(6)} ms  (goal p95 ≤ ${GOAL_P95_MS} ms: ${verdict})`;
}

/** Builds the corpus, measures, prints, removes the temp dir. */
export async function runSessionSearchBench(params: { messages: number; sessions: number; samples: number; beforeSamples: number }): Promise<SearchFigures[]> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'hermes-bench-search-'));
  try {
    const dbPath = path.join(dir, 'state.db');
    const corpus = buildSearchCorpus({ path: dbPath, messages: params.messages, sessions: params.sessions });
    console.log(`session_search: built a store of ${corpus.messages.toLocaleString('en-US')} messages in ${corpus.sessions.toLocaleString('en-US')} sessions in ${corpus.seconds.toFixed(1)} s (Zipf(1) over ${corpus.vocabulary.length.toLocaleString('en-US')} words)`);
    const store = openStore({ path: dbPath, clock: systemClock });
    try {
      const recall = sessionRecall({ store, scrub: (text) => text, timeZone: 'UTC', logger: { warn: () => undefined } });
      const random = seededRandom({ seed: 7 });
      const word = (lo: number, hi: number): string => corpus.vocabulary[lo + Math.floor(random() * (hi - lo))] ?? 'x';
      const classes: { name: string; make: () => string }[] = [
        { name: 'rare (rank 20k-50k)', make: () => word(20_000, corpus.vocabulary.length) },
        { name: 'mid (rank 200-2000)', make: () => word(200, 2_000) },
        { name: 'very common (rank 1-20)', make: () => word(0, 20) },
        { name: 'two words (common + mid)', make: () => `${word(0, 20)} ${word(200, 2_000)}` },
        { name: 'two common words', make: () => `${word(0, 20)} ${word(0, 20)}` },
        { name: 'common OR common', make: () => `${word(0, 20)} OR ${word(0, 20)}` },
        { name: 'phrase of two common', make: () => `"${word(0, 10)} ${word(0, 10)}"` },
      ];
      const signal = new AbortController().signal;
      const exclude = 'bench-none';
      // Warm-up: the page cache and the JIT, so the first class is not charged for them.
      for (let i = 0; i < 5; i += 1) await recall.search({ query: word(0, 2_000), excludeSessionId: exclude, signal });
      const results: SearchFigures[] = [];
      for (const c of classes) {
        const queries = Array.from({ length: params.samples }, () => c.make());
        const after: number[] = [];
        let longest = 0;
        for (const query of queries) {
          const start = performance.now();
          const text = await recall.search({ query, excludeSessionId: exclude, signal });
          after.push(performance.now() - start);
          longest = Math.max(longest, text.length);
        }
        // store.search second: both paths then read the same query's pages from a warm cache.
        const before: number[] = [];
        for (const query of queries.slice(0, params.beforeSamples)) {
          const start = performance.now();
          store.search({ query, limit: 50 });
          before.push(performance.now() - start);
        }
        const f = figures({ name: c.name, ms: after });
        results.push(f);
        console.log(line({ label: 'cli', f: figures({ name: c.name, ms: before }) }));
        console.log(`${line({ label: 'after', f })}  longest result ${longest} chars`);
      }
      const worst = Math.max(...results.map((r) => r.p95));
      console.log(`session_search: worst p95 ${worst.toFixed(1)} ms over every class (goal ≤ ${GOAL_P95_MS} ms); "cli" is store.search (hermes sessions search: bounded candidates, 50 single messages with snippets), "after" the session_search path (bounded candidates, grouped, formatted)`);
      return results;
    } finally {
      store.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await runSessionSearchBench({
    messages: Number.parseInt(process.env['BENCH_SEARCH_MESSAGES'] ?? '1000000', 10),
    sessions: Number.parseInt(process.env['BENCH_SEARCH_SESSIONS'] ?? '10000', 10),
    samples: Number.parseInt(process.env['BENCH_SEARCH_SAMPLES'] ?? '60', 10),
    beforeSamples: Number.parseInt(process.env['BENCH_SEARCH_BEFORE_SAMPLES'] ?? '10', 10),
  });
}
