import type { SlackState } from './state.js';
import type { Params } from './types.js';

/** A Slack `{ok:false, error}` answer, thrown by method handlers. */
export class SlackApiError extends Error {
  /** Slack's error code, e.g. channel_not_found. */
  readonly code: string;

  constructor(params: { code: string }) {
    super(params.code);
    this.code = params.code;
  }
}

/** What a Web API method handler gets. */
export interface MethodContext {
  /** The workspace state. */
  state: SlackState;
  /** Request parameters (token removed). */
  params: Params;
}

/** A Web API method: returns the fields to add next to `ok: true`, or throws SlackApiError. */
export type MethodHandler = (ctx: MethodContext) => Record<string, unknown>;

/** A required string parameter, or Slack's error code when it is missing or empty. */
export function requireString(params: { from: Params; key: string; error?: string }): string {
  const value = optionalString({ from: params.from, key: params.key });
  if (value === undefined || value === '') throw new SlackApiError({ code: params.error ?? 'invalid_arguments' });
  return value;
}

/** An optional string parameter (numbers are stringified, like Slack's form parsing). */
export function optionalString(params: { from: Params; key: string }): string | undefined {
  const value = params.from[params.key];
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return String(value);
  return undefined;
}

/** A channel id the workspace knows, or channel_not_found. */
export function requireChannel(params: { state: SlackState; from: Params; key?: string }): string {
  const channel = requireString({ from: params.from, key: params.key ?? 'channel', error: 'channel_not_found' });
  if (params.state.channelType({ channel }) === undefined) throw new SlackApiError({ code: 'channel_not_found' });
  return channel;
}

/** A parameter that is JSON in forms and a value in JSON bodies (blocks, files, ...), parsed. */
export function jsonParam(params: { from: Params; key: string }): unknown {
  const value = params.from[params.key];
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    throw new SlackApiError({ code: 'invalid_arguments' });
  }
}
