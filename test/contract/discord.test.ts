import { discordPlatform } from '../helpers/discord.js';
import { adapterContract } from './suite.js';

adapterContract({ name: 'discord (discord.js against FakeDiscord)', setup: discordPlatform });
