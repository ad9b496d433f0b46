import type { EnvSnapshot } from '../../home/hermes-home.js';
import type { Clock } from '../../core/clock.js';
import type { AppParsedConfig } from '../../app/config-schema.js';
import type { ConfigSchema } from '../../config/schema.js';
import type { Ask } from './ask.js';

/** What every setup section gets. */
export interface SectionContext {
  /** The questions; undefined when setup runs from flags only (--yes, or no terminal). */
  readonly ask: Ask | undefined;
  /** The environment the command runs with (the profile's .env is layered over it when checking). */
  readonly env: EnvSnapshot;
  /** The schema config.yaml is validated with (platforms included). */
  readonly schema: ConfigSchema<AppParsedConfig>;
  /** For the timeouts of the live checks. */
  readonly clock: Clock;
  /** Milliseconds, for "answered in N ms". */
  readonly now: () => number;
  /** Shows one line of progress ("Checking the token..."). */
  readonly progress: (params: { text: string }) => void;
  /** Values never to print (keys and tokens as they are entered); the command's output is scrubbed of them. */
  readonly secrets: Set<string>;
}

/** What a section found: on success the keys it set (the files are written after), else what went wrong. */
export type SectionResult =
  | { readonly ok: true; readonly detail: string; readonly wrote: readonly string[] }
  | { readonly ok: false; readonly detail: string; readonly hint?: string };
