import { telegramPlatform } from '../helpers/telegram.js';
import { adapterContract } from './suite.js';

adapterContract({ name: 'telegram (grammy against FakeTelegram)', setup: telegramPlatform });
