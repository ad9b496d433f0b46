import type { Logger } from 'pino';
import type { PlatformAdapter } from './adapter.js';
import type { AllowList } from './authorize.js';
import type { Clock } from './clock.js';

/** What to do with a message that arrives while the session is answering another (steer: add it to the running turn). */
export type BusyPolicy = 'interrupt' | 'queue' | 'steer';

/** Emoji put on the message being answered as its turn goes ('' for none). */
export interface TurnReactions {
  readonly start: string;
  readonly done: string;
  readonly error: string;
  /** Take the start reaction off when the turn ends, whatever the outcome (a "thinking" indicator). */
  readonly clearStart?: boolean;
}

/** 👀 while the agent works, ✅ when the answer is out, ❌ when it failed. */
export const defaultTurnReactions: TurnReactions = { start: '👀', done: '✅', error: '❌' };

/** A reaction used as a "thinking" indicator: on while the turn runs, always taken off after. */
export const thinkingReaction: TurnReactions = { start: 'eyes', done: '', error: '', clearStart: true };

/** One adapter and how the gateway treats it. */
export interface AdapterEntry {
  readonly adapter: PlatformAdapter;
  /** Who may talk through it. */
  readonly allow: AllowList;
  /** Overrides the stream edit interval for this adapter (e.g. a terminal). */
  readonly editIntervalMs?: number;
  /** Overrides the busy policy for this adapter's sessions (e.g. piped terminal input queues). */
  readonly busyPolicy?: BusyPolicy;
  /** How long to wait for more parts of a message the adapter marked `continues` (albums, split texts). */
  readonly mergeWindowMs?: number;
  /** Reactions on the message being answered (start/done/error), when the platform has them and they are on. */
  readonly reactions?: TurnReactions;
  /** What an unknown sender in a DM gets: a pairing code the owner can approve, or nothing (default). */
  readonly unauthorized?: 'pair' | 'ignore';
  /** Everyone writing through it sits at this machine and is its owner (hermes chat's terminal): they answer approvals. */
  readonly localOwner?: boolean;
}

/** A skill as a chat command: its name (as written in SKILL.md) and one-line description. */
export interface SkillCommand {
  readonly name: string;
  readonly description: string;
}

/** What a platform's factory gets: its own config block and the profile's folders it may use. */
export interface PlatformFactoryParams<C> {
  /** The platform's block of config.yaml (`platforms.<name>`), validated. */
  readonly config: C;
  /** The profile's media cache: inbound files are downloaded here. */
  readonly cacheDir: string;
  /** The profile's skills usable on this platform, read from disk when called (menus that list skills as commands). */
  readonly skillCommands: () => readonly SkillCommand[];
  /** What the gateway around the adapter is (its profile, stream cursor, HTTP server). */
  readonly gateway: GatewayFacts;
  readonly clock: Clock;
  readonly logger: Logger;
}

/** The facts about the gateway an adapter may need: whose it is and where its HTTP server listens. */
export interface GatewayFacts {
  readonly profileName: string;
  /** The cursor shown at the end of a reply being streamed (stream.cursor). */
  readonly cursor: string;
  readonly http: HttpFacts;
}

/** The gateway's HTTP server as configured (gateway.http). */
export interface HttpFacts {
  readonly enabled: boolean;
  readonly host: string;
  /** 0: any free port. */
  readonly port: number;
}

/** Builds the adapter entry of one enabled platform. */
export type PlatformFactory<C> = (params: PlatformFactoryParams<C>) => AdapterEntry;
