import type { SlackConfig } from './config-schema.js';
import type { PlatformFactory } from '../../src/core/platform.js';
import { thinkingReaction } from '../../src/core/platform.js';
import { SlackAdapter } from './adapter.js';

/** Builds the Slack adapter entry from `platforms.slack`. */
export const slackFactory: PlatformFactory<SlackConfig> = ({ config: slack, cacheDir, clock, logger }) => {
  return {
    adapter: new SlackAdapter({ config: slack, cacheDir: cacheDir, clock, logger }),
    allow: slack.allowed_users,
    unauthorized: slack.unauthorized,
    mergeWindowMs: slack.merge_window,
    // 👀 on the message while the agent thinks (assistant status only exists in threads), always taken off.
    reactions: thinkingReaction,
  };
};
