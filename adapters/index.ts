import { api } from './api/descriptor.js';
import { discord } from './discord/descriptor.js';
import { email } from './email/descriptor.js';
import { slack } from './slack/descriptor.js';
import { sms } from './sms/descriptor.js';
import { telegram } from './telegram/descriptor.js';

/**
 * Every platform this build ships, in the order config, setup and doctor list them: the only place that names them.
 * A new platform is a folder with its descriptor (adapters/<name>/descriptor.ts) and one entry here.
 */
export const platforms = [telegram, slack, discord, email, sms, api] as const;

/** A platform's config name. */
export type PlatformName = (typeof platforms)[number]['name'];
