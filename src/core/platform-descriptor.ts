import type { z } from 'zod';
import type { HttpFacts, PlatformFactory } from './platform.js';

/**
 * One messaging platform as the rest of hermes sees it: everything that differs between platforms, in one object per
 * platform (adapters/<name>/descriptor.ts), listed once in adapters/index.ts. A descriptor module loads no SDK and no
 * zod: `hermes status` reads the list; the config schema, the adapter and the credentials check load on first use.
 */
export interface PlatformDescriptor<N extends string = string, C extends PlatformBlock = PlatformBlock> {
  /** The config name (`platforms.<name>`), also the first part of session keys. */
  readonly name: N;
  /** For people ("Telegram", "SMS (Twilio)"). */
  readonly title: string;
  /** How to write replies for this platform, matching what its adapter does with the text (the prompt's runtime layer). */
  readonly formatting: string;
  /** The `platforms.<name>` block's schema (zod), loaded when a config is validated. */
  readonly schema: () => Promise<z.ZodType<C, unknown>>;
  /** The adapter's factory, loaded (with the platform's SDK) only when the platform is enabled. */
  readonly load: () => Promise<PlatformFactory<C>>;
  /** The live credentials check `hermes doctor` and `hermes setup` run. */
  readonly credentialCheck: () => Promise<CredentialCheck<C>>;
  /** What `hermes setup <name>` asks (and its flags); absent: the platform has no setup section. */
  readonly setup?: PlatformSetup;
  /**
   * The accounts an enabled block logs in as (a bot token, a mailbox on a host): two profiles using one are refused
   * at start (clash detection). Each is named by its config keys and identified by their values.
   */
  readonly accounts: (params: { config: C }) => readonly AccountRef[];
}

/** Fields every platform block has. A platform is enabled only by `enabled: true`, never by a token alone. */
export interface PlatformBlock {
  readonly enabled: boolean;
  /** Platform user ids (or @usernames, role:<id>) allowed to talk to the agent. */
  readonly allowed_users: readonly string[];
}

/** The config block type of a descriptor. */
export type BlockOf<D> = D extends PlatformDescriptor<string, infer C> ? C : never;

/** One account of a platform block: the keys under `platforms.<name>` that identify it, and their values. */
export interface AccountRef {
  readonly keys: readonly string[];
  /** The values of `keys`, in order; an account with a missing or empty value is not counted. */
  readonly values: readonly (string | undefined)[];
}

/** What a platform's credentials check found (used by `hermes doctor`). */
export interface CredentialCheckResult {
  /** The credentials work against the platform's API. */
  readonly ok: boolean;
  /** One line: who the bot is ("@work_bot"), or what went wrong. Never a secret. */
  readonly detail: string;
  /** What to do about a failure. */
  readonly hint?: string;
}

/**
 * Checks one enabled platform's credentials with a single cheap API call (Telegram getMe, Slack auth.test,
 * IMAP login, ...). Must honour `signal` (doctor aborts it after a short timeout) and never throw.
 */
export type CredentialCheck<C> = (params: { config: C; signal: AbortSignal; http?: HttpFacts }) => Promise<CredentialCheckResult>;

/** One setting a platform's setup section asks for (or takes from its flag). */
export interface PlatformField {
  /** The key under platforms.<name>. */
  readonly key: string;
  /** The command-line flag without dashes (e.g. "token" for --token). */
  readonly flag: string;
  /** The question, and the flag's help. */
  readonly label: string;
  /** A secret: its value goes to .env under this variable and config.yaml gets `${VAR}`. */
  readonly envName?: string;
  /** How the value is written to YAML. */
  readonly type?: 'string' | 'int' | 'bool';
  /** Asked interactively (false: flag only, e.g. an API base URL for tests and proxies). */
  readonly ask: boolean;
  /** Whether the platform cannot work without it, given the other values chosen so far. */
  readonly required: boolean | ((values: Readonly<Record<string, unknown>>) => boolean);
  /** Used when nothing is given and config.yaml has no value. */
  readonly fallback?: string;
  /** What is wrong with a value, or undefined. */
  readonly validate?: (value: string) => string | undefined;
  /** A phone number: checked (and normalized to E.164) by the section, which loads the SMS adapter's phone module. */
  readonly phone?: boolean;
}

/** How the owner's id is asked for and checked. */
export interface OwnerField {
  /** The question. */
  readonly label: string;
  /** Where to find it. */
  readonly hint: string;
  /** The id in the form allowed_users wants, or undefined when it is not one (for `phone`: the section normalizes). */
  readonly normalize: (value: string) => string | undefined;
  /** A phone number (normalized to E.164 by the section). */
  readonly phone?: boolean;
}

/** A platform's `hermes setup` section. */
export interface PlatformSetup {
  /** Where to get the credentials. */
  readonly intro: string;
  /** The settings, in the order asked. */
  readonly fields: readonly PlatformField[];
  /** The owner, added to allowed_users. */
  readonly owner: OwnerField;
}
