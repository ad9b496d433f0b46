import type { PlatformName } from '../config/schema.js';

/**
 * A turn the heartbeat or a check asks for: "inject this prompt into the home channel of `platform`". The wiring
 * (runner.inject) journals, routes, paces and delivers it like a user's message; for `source: 'heartbeat'` it must
 * not deliver an answer for which `isHeartbeatOk` is true.
 */
export interface InjectRequest {
  readonly source: 'heartbeat' | 'check';
  /** "heartbeat", or the check's name (a session title, a log field). */
  readonly name: string;
  /** The platform whose home channel gets the turn (set there with /sethome). */
  readonly platform: PlatformName;
  /** The user-side text of the turn. */
  readonly prompt: string;
  /** The scheduled time the request belongs to (ms since the epoch, on the loop's grid). */
  readonly scheduledFor: number;
}

/**
 * Hands a request to the runner. Resolves when the turn was accepted (or has run); rejects when it could not be
 * (no home channel, the gateway is stopping): the loop logs one warn and, for a `once` check, does not retire it.
 */
export type InjectTurn = (params: { request: InjectRequest; signal: AbortSignal }) => Promise<void>;
