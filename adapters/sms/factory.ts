import type { SmsConfig } from './config-schema.js';
import type { PlatformFactory } from '../../src/core/platform.js';
import { SmsAdapter } from './adapter.js';

/** Builds the SMS (Twilio) adapter entry from `platforms.sms`. */
export const smsFactory: PlatformFactory<SmsConfig> = ({ config: sms, cacheDir, clock, logger }) => {
  return {
    adapter: new SmsAdapter({ config: sms, cacheDir: cacheDir, clock, logger }),
    allow: sms.allowed_users,
    unauthorized: sms.unauthorized,
  };
};
