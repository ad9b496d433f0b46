import type { GatewayConfig } from '../../config/schema.js';
import type { Profile } from '../../home/profile.js';
import type { SessionPrompt } from '../../store/types.js';
import type { Clock } from '../../core/clock.js';
import { buildSessionPrompt } from './builder.js';
import { profileTimeZone } from '../../util/schedule/time-zone.js';
import { currentTimeBlock } from './time-text.js';
import { parseSnapshot } from '../../mcp/snapshot.js';
import type { FormattingRules } from './platform-rules.js';
import type { PromptLogger } from './types.js';

/** How the gateway gets system prompts: one built per session, plus an optional block on each model call. */
export interface PromptSource {
  /**
   * Builds the prompt of a session that has none yet. `extraTools`: the session's MCP tools as frozen when it started
   * (kept in the prompt it returns; the servers it went without are named in the prompt).
   */
  build(params: { platform: string; startedAt: number; extraTools?: string }): SessionPrompt;
  /** The ephemeral block sent after the history on each model call (`agent.current_time: call`); never stored. */
  readonly perCall?: () => string;
}

/** The prompt source for a profile's config (a reloaded config gets a new one, used by sessions started after it). */
export function promptSource(params: {
  profile: Profile;
  config: GatewayConfig;
  clock: Clock;
  scrub: (text: string) => string;
  logger: PromptLogger;
  /** The names of the tools the agent is offered (see BuildPromptParams.toolNames), or those a platform's tool sets offer. */
  toolNames: readonly string[] | ((platform: string) => readonly string[]);
  /** How replies are written on each platform (see BuildPromptParams.formatting). */
  formatting: FormattingRules;
}): PromptSource {
  const { profile, config, clock, scrub, logger, toolNames, formatting } = params;
  return {
    build: ({ platform, startedAt, extraTools }) => {
      const mcp = extraTools === undefined ? undefined : parseSnapshot({ text: extraTools });
      const names = typeof toolNames === 'function' ? toolNames(platform) : toolNames;
      const prompt = buildSessionPrompt({ profile, config, platform, startedAt, scrub, logger, toolNames: names, formatting, mcpUnavailable: mcp?.unavailable ?? [] });
      return extraTools === undefined ? prompt : { ...prompt, extraTools };
    },
    // The zone is asked at each call (cached by hostTimeZone), not here: an idle gateway need not load ICU's data.
    ...(config.agent.current_time === 'call' ? { perCall: () => currentTimeBlock({ now: clock.now(), timeZone: profileTimeZone({ config }) }) } : {}),
  };
}
