import { api } from './api/descriptor.js';
import { discord } from './discord/descriptor.js';
import { email } from './email/descriptor.js';
import { slack } from './slack/descriptor.js';
import { sms } from './sms/descriptor.js';
import { telegram } from './telegram/descriptor.js';
import { terminalFormatting } from './terminal/typed-message.js';

/**
 * Every platform this build ships, in the order config, setup and doctor list them: the only place that names them.
 * A new platform is a folder with its descriptor (adapters/<name>/descriptor.ts) and one entry here.
 */
export const platforms = [telegram, slack, discord, email, sms, api] as const;

/** A platform's config name. */
export type PlatformName = (typeof platforms)[number]['name'];

/** How replies are written on each platform, for the system prompt: every descriptor's, and the terminal chat's. */
export const formattingRules: Readonly<Record<string, string>> = {
  terminal: terminalFormatting,
  ...Object.fromEntries(platforms.map((platform) => [platform.name, platform.formatting])),
};
