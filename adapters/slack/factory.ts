import type { PlatformFactory } from '../../src/app/platforms.js';
import { thinkingReaction } from '../../src/gateway/turns/reactions.js';
import { SlackAdapter } from './adapter.js';

/** Builds the Slack adapter entry from `platforms.slack`. */
export const slackFactory: PlatformFactory = ({ config, profile, clock, logger }) => {
  const slack = config.platforms.slack;
  return {
    adapter: new SlackAdapter({ config: slack, cacheDir: profile.cacheDir, clock, logger }),
    allow: slack.allowed_users,
    unauthorized: slack.unauthorized,
    mergeWindowMs: slack.merge_window,
    // 👀 on the message while the agent thinks (assistant status only exists in threads), always taken off.
    reactions: thinkingReaction,
  };
};
