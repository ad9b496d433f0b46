import { z } from 'zod';

/** One result of a web search. */
export interface SearchHit {
  readonly title: string;
  readonly url: string;
  readonly snippet: string;
}

/** The search service web_search asks (config `web.search_*`). */
export interface SearchBackend {
  readonly kind: 'searxng' | 'brave' | 'tavily';
  /** The service's address: a SearXNG instance; Brave's and Tavily's own API unless overridden. */
  readonly url?: string | undefined;
  readonly apiKey?: string | undefined;
}

/** A search the service refused or answered with something unreadable. */
export class SearchError extends Error {
  override readonly name = 'SearchError';
}

const searxngAnswer = z.object({ results: z.array(z.object({ url: z.string(), title: z.string().default(''), content: z.string().default('') })).default([]) });
const braveAnswer = z.object({
  web: z.object({ results: z.array(z.object({ url: z.string(), title: z.string().default(''), description: z.string().default('') })).default([]) }).default({ results: [] }),
});
const tavilyAnswer = z.object({ results: z.array(z.object({ url: z.string(), title: z.string().default(''), content: z.string().default('') })).default([]) });

/** Tags and entities out of a snippet (Brave marks matches with <strong>). */
function plain(text: string): string {
  return text
    .replace(/<[^>]*>/g, '')
    .replace(/&(amp|lt|gt|quot|#39);/g, (_, name: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" })[name] ?? '')
    .replace(/\s+/g, ' ')
    .trim();
}

/** The request for one search: address and init. */
function requestFor(params: { backend: SearchBackend; query: string; limit: number }): { url: string; init: RequestInit } {
  const { backend, query, limit } = params;
  if (backend.kind === 'searxng') {
    const url = new URL('search', (backend.url ?? '').replace(/\/?$/, '/'));
    url.searchParams.set('q', query);
    url.searchParams.set('format', 'json');
    return { url: url.href, init: { headers: { accept: 'application/json' } } };
  }
  if (backend.kind === 'brave') {
    const url = new URL(backend.url ?? 'https://api.search.brave.com/res/v1/web/search');
    url.searchParams.set('q', query);
    url.searchParams.set('count', String(Math.min(limit, 20)));
    return { url: url.href, init: { headers: { accept: 'application/json', 'x-subscription-token': backend.apiKey ?? '' } } };
  }
  return {
    url: backend.url ?? 'https://api.tavily.com/search',
    init: {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${backend.apiKey ?? ''}` },
      body: JSON.stringify({ query, max_results: Math.min(limit, 20) }),
    },
  };
}

/** The hits in a service's answer. */
function hitsOf(params: { backend: SearchBackend; answer: unknown }): SearchHit[] {
  const { backend, answer } = params;
  if (backend.kind === 'brave') return braveAnswer.parse(answer).web.results.map((r) => ({ title: plain(r.title), url: r.url, snippet: plain(r.description) }));
  const parsed = (backend.kind === 'searxng' ? searxngAnswer : tavilyAnswer).parse(answer);
  return parsed.results.map((r) => ({ title: plain(r.title), url: r.url, snippet: plain(r.content) }));
}

/**
 * Asks the configured service for `query`: at most `limit` hits. The service's address is the owner's configuration
 * (a SearXNG on this host is usual), so it is not held to the private-address rule of page fetches. Throws SearchError
 * for a refusal (HTTP status, bad key) or an answer that is not the service's JSON.
 */
export async function searchWeb(params: { backend: SearchBackend; query: string; limit: number; signal: AbortSignal }): Promise<SearchHit[]> {
  const { backend, query, limit, signal } = params;
  const request = requestFor({ backend, query, limit });
  const response = await fetch(request.url, { ...request.init, signal });
  if (!response.ok) {
    const hint = response.status === 401 || response.status === 403 ? ' (check web.search_api_key)' : '';
    throw new SearchError(`${backend.kind} answered HTTP ${response.status}${hint}`);
  }
  let answer: unknown;
  try {
    answer = await response.json();
  } catch {
    throw new SearchError(`${backend.kind} did not answer with JSON${backend.kind === 'searxng' ? ' (enable the json format under search.formats in its settings.yml)' : ''}`);
  }
  try {
    return hitsOf({ backend, answer }).slice(0, limit);
  } catch {
    throw new SearchError(`${backend.kind} answered JSON without the expected results`);
  }
}
