import { platformRules, type FormattingRules } from './platform-rules.js';
import { timeText } from './time-text.js';
import type { PromptLayer } from './types.js';

/** The runtime-facts layer: who and where the agent is, when the session started, and how to format for the platform. */
export function runtimeLayer(params: { profileName: string; workspace: string; platform: string; startedAt: number; timeZone: string; formatting: FormattingRules }): PromptLayer {
  const lines = [
    '# Where you run',
    `Profile: ${params.profileName}. Your workspace (where your file and terminal tools work) is ${params.workspace}.`,
    `This conversation started ${timeText({ at: params.startedAt, timeZone: params.timeZone })}; the owner's time zone is ${params.timeZone}.`,
    `Platform: ${params.platform}. ${platformRules({ platform: params.platform, rules: params.formatting })}`,
  ];
  return { name: 'runtime', text: lines.join('\n') };
}
