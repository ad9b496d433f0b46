import type { Api } from 'grammy';

/** The AbortSignal type grammy's Node build declares (from the abort-controller package). */
export type GrammySignal = NonNullable<Parameters<Api['getMe']>[0]>;

/**
 * Node's AbortSignal, typed as grammy expects. At run time they are the same object: grammy only calls
 * addEventListener/aborted on it; the two declarations merely differ in TypeScript.
 */
export function grammySignal(signal: AbortSignal): GrammySignal {
  return signal as unknown as GrammySignal;
}
