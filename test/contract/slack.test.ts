import { slackPlatform } from '../helpers/slack.js';
import { adapterContract } from './suite.js';

adapterContract({ name: 'slack (Socket Mode, @slack/socket-mode + web-api against FakeSlack)', setup: slackPlatform });
