import type { Clock } from '../core/clock.js';
import { withTimeout } from '../util/timeout.js';
import { fetchPage, PageFetchError, type FetchedPage } from './fetch-page.js';
import { searchWeb, type SearchBackend, type SearchHit } from './search.js';

/** What the web tools may do (config `web`). */
export interface WebSettings {
  /** Absent: no search service, web_search is not offered. */
  readonly search?: SearchBackend | undefined;
  /** Characters of a page's text web_extract returns whole; past it, the head and tail of the text. */
  readonly extractCharLimit: number;
  /** Most bytes of a page downloaded. */
  readonly maxBytes: number;
  /** Longest a fetch or search may take. */
  readonly timeoutMs: number;
  /** How long a page's text is reused for the same URL. */
  readonly cacheTtlMs: number;
  /** Pages on private, loopback and link-local addresses may be fetched. */
  readonly allowPrivate: boolean;
}

/** A page's text as web_extract gets it. */
export interface ExtractedPage {
  /** The address asked for, and where the text came from after redirects. */
  readonly url: string;
  readonly finalUrl: string;
  readonly title: string;
  readonly text: string;
  /** True when the download stopped at `web.max_bytes`. */
  readonly truncated: boolean;
  readonly contentType: string;
}

/** The web for the tools (ToolContext.web). */
export interface WebCapability {
  readonly settings: () => WebSettings;
  /**
   * The bytes at an address (an image for vision_analyze), under the same rules as every fetch here: an address
   * holding a secret refused, public addresses only (every redirect too), web.timeout and web.max_bytes.
   */
  fetch(params: { url: string; signal: AbortSignal }): Promise<FetchedPage>;
  /** A page's readable text; throws Error with a readable message when it cannot be had. */
  extract(params: { url: string; signal: AbortSignal }): Promise<ExtractedPage>;
  /** Hits for a query from the configured service; throws when none is configured or it fails. */
  search(params: { query: string; limit: number; signal: AbortSignal }): Promise<SearchHit[]>;
}

/** Network error codes in words. */
const CODES: Readonly<Record<string, string>> = {
  ENOTFOUND: 'no such host',
  EAI_AGAIN: 'the host name could not be resolved now',
  ECONNREFUSED: 'the connection was refused',
  ECONNRESET: 'the connection was reset',
  ETIMEDOUT: 'the connection timed out',
  EHOSTUNREACH: 'the host is unreachable',
  ENETUNREACH: 'the network is unreachable',
  CERT_HAS_EXPIRED: "the site's certificate has expired",
  DEPTH_ZERO_SELF_SIGNED_CERT: "the site's certificate is self-signed",
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: "the site's certificate could not be verified",
  ERR_TLS_CERT_ALTNAME_INVALID: "the site's certificate is for another name",
};

/** A fetch's or search's failure in one readable line (fetch's "fetch failed" says why through its cause). */
export function webFailure(params: { error: unknown }): string {
  const { error } = params;
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? error.cause : undefined;
  const code = [error, cause].map((e) => (e !== undefined && 'code' in e ? String(e.code) : '')).find((c) => c !== '' && CODES[c] !== undefined);
  if (code !== undefined) return `${CODES[code] ?? code} (${code})`;
  return cause !== undefined && error.message === 'fetch failed' ? cause.message : error.message;
}

/** Pages kept in the cache at most, and their characters in all (the oldest go first; a bigger page is not kept). */
const CACHE_ENTRIES = 64;
const CACHE_CHARS = 4_000_000;

/** The user agent pages see. */
const USER_AGENT = 'Mozilla/5.0 (compatible; hermes-gateway)';

/**
 * The web capability over `settings` (read at each call, so a reload applies): page fetches with the address rule
 * (`isPublic`, default isPublicAddress: tests let their own server through), timeout and size cap, text by
 * Readability, and a cache of recent pages by URL for `cacheTtlMs`. An address or query holding one of the profile's
 * secrets (what `scrub` replaces, percent-encoded too) is refused before anything is sent.
 */
export function webCapability(params: { settings: () => WebSettings; clock: Clock; scrub: (text: string) => string; isPublic?: (address: string) => boolean }): WebCapability {
  const { clock } = params;
  // A model (or a page it read) could put a secret into an address or a query and send it away: such a request is refused.
  const refuseSecrets = ({ text, what }: { text: string; what: string }): void => {
    let decoded = text;
    try {
      decoded = decodeURIComponent(text.replace(/\+/g, ' '));
    } catch {
      // Not valid percent-encoding: the text as it is is checked.
    }
    if (params.scrub(text) !== text || params.scrub(decoded) !== decoded) throw new Error(`the ${what} holds one of the profile's secrets; it was not sent`);
  };
  const cache = new Map<string, { at: number; page: ExtractedPage }>();
  let cachedChars = 0;
  // Bounded by count and by size: a gateway reading pages for days keeps at most a few MB of them.
  const remember = ({ url, page }: { url: string; page: ExtractedPage }): void => {
    const old = cache.get(url);
    if (old !== undefined) cachedChars -= old.page.text.length;
    cache.delete(url);
    if (page.text.length > CACHE_CHARS / 4) return;
    cache.set(url, { at: clock.now(), page });
    cachedChars += page.text.length;
    for (const [key, entry] of cache) {
      if (cache.size <= CACHE_ENTRIES && cachedChars <= CACHE_CHARS) break;
      cache.delete(key);
      cachedChars -= entry.page.text.length;
    }
  };
  // Every fetch: the address rule, the timeout and the size cap of the settings now (the secret check is the caller's).
  const fetchChecked = ({ url, signal }: { url: string; signal: AbortSignal }): Promise<FetchedPage> => {
    const settings = params.settings();
    return withTimeout({
      clock,
      ms: settings.timeoutMs,
      signal,
      run: (timed) =>
        fetchPage({ url, allowPrivate: settings.allowPrivate, maxBytes: settings.maxBytes, signal: timed, userAgent: USER_AGENT, ...(params.isPublic ? { isPublic: params.isPublic } : {}) }),
    });
  };
  return {
    settings: params.settings,
    fetch: ({ url, signal }) => {
      refuseSecrets({ text: url, what: 'address' });
      return fetchChecked({ url, signal });
    },
    extract: async ({ url, signal }) => {
      refuseSecrets({ text: url, what: 'address' });
      const cached = cache.get(url);
      if (cached !== undefined && clock.now() - cached.at < params.settings().cacheTtlMs) return cached.page;
      const fetched = await fetchChecked({ url, signal });
      // Readability and linkedom load with the first page read, not with the gateway.
      const { extractText } = await import('./extract.js');
      const text = extractText({ body: fetched.body, contentType: fetched.contentType, url: fetched.url });
      if (text === undefined) throw new PageFetchError(`${fetched.url} is not a text page (${fetched.contentType || 'no content type'}); it was not read`);
      const page: ExtractedPage = { url, finalUrl: fetched.url, title: text.title, text: text.text, truncated: fetched.truncated, contentType: fetched.contentType };
      remember({ url, page });
      return page;
    },
    search: async ({ query, limit, signal }) => {
      refuseSecrets({ text: query, what: 'query' });
      const settings = params.settings();
      if (settings.search === undefined) throw new Error('no search service is configured: set web.search_backend (searxng, brave or tavily) in config.yaml');
      const backend = settings.search;
      return withTimeout({ clock, ms: settings.timeoutMs, signal, run: (timed) => searchWeb({ backend, query, limit, signal: timed }) });
    },
  };
}
