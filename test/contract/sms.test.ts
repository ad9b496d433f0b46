import { smsPlatform } from '../helpers/sms.js';
import { adapterContract } from './suite.js';

adapterContract({ name: 'sms (twilio SDK against FakeTwilio, signed webhooks on the gateway HTTP server)', setup: smsPlatform });
