import type { MultipartPart } from '../telegram/multipart.js';

/** A parsed REST request below /api/v10. */
export interface RestRequest {
  /** HTTP method, upper case. */
  method: string;
  /** Path below /api/v10. */
  path: string;
  /** Values of the route's `:name` segments. */
  params: Record<string, string>;
  /** JSON body, or payload_json of a multipart body. */
  body: unknown;
  /** Multipart file parts (`files[n]`). */
  files: MultipartPart[];
}

/** A REST answer: status and JSON body (204 has none). */
export interface RestResult {
  /** HTTP status. */
  status: number;
  /** JSON body. */
  body?: unknown;
}

/** One route: 'METHOD /path/:param' and its handler. */
export interface Route {
  /** e.g. 'POST /channels/:channel/messages'. */
  pattern: string;
  /** Produces the answer or throws DiscordApiError. */
  handle(request: RestRequest): RestResult;
}

/** A Discord API error answer: `{ message, code, errors? }` with an HTTP status. */
export class DiscordApiError extends Error {
  /** HTTP status. */
  readonly status: number;
  /** Discord JSON error code. */
  readonly code: number;
  /** Field errors for 50035. */
  readonly errors: unknown;

  constructor(params: { status: number; code: number; message: string; errors?: unknown }) {
    super(params.message);
    this.status = params.status;
    this.code = params.code;
    this.errors = params.errors;
  }

  /** The JSON body Discord would send. */
  toJson(): Record<string, unknown> {
    return { message: this.message, code: this.code, ...(this.errors === undefined ? {} : { errors: this.errors }) };
  }
}

/** Matches 'METHOD /a/:b' against a method and path; returns the params or undefined. */
export function matchRoute(params: { pattern: string; method: string; path: string }): Record<string, string> | undefined {
  const space = params.pattern.indexOf(' ');
  const method = params.pattern.slice(0, space).toUpperCase();
  if (method !== params.method.toUpperCase()) return undefined;
  const want = params.pattern.slice(space + 1).split('/');
  const got = params.path.replace(/\/+$/, '').split('/');
  if (want.length !== got.length) return undefined;
  const values: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    const w = want[i] ?? '';
    const g = got[i] ?? '';
    if (w.startsWith(':')) values[w.slice(1)] = g;
    else if (w !== g) return undefined;
  }
  return values;
}

/** Finds the route for a request; throws a 404 DiscordApiError when none matches. */
export function findRoute(params: { routes: Route[]; method: string; path: string }): { route: Route; values: Record<string, string> } {
  for (const route of params.routes) {
    const values = matchRoute({ pattern: route.pattern, method: params.method, path: params.path });
    if (values) return { route, values };
  }
  throw new DiscordApiError({ status: 404, code: 0, message: '404: Not Found' });
}
