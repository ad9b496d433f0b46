import type { Logger } from 'pino';
import type { AdapterStorage } from '../../src/core/adapter.js';
import type { TwilioParams } from './inbound.js';
import { maskPhone } from '../../src/util/phone.js';

/** The storage key holding the latest delivery reports (JSON list, newest last). */
export const STATUS_KEY = 'delivery_status';

/** How many delivery reports are kept. */
const MAX_REPORTS = 100;

/** One delivery report of a sent message, as stored. */
export interface DeliveryReport {
  readonly messageSid: string;
  /** Twilio's status: queued, sent, delivered, undelivered, failed, ... */
  readonly status: string;
  /** Twilio's error code for failed and undelivered messages (e.g. "30003"). */
  readonly errorCode?: string;
  readonly at: number;
}

/** The stored delivery reports, oldest first (empty when none or unreadable). */
export function readReports(params: { storage: AdapterStorage }): DeliveryReport[] {
  const raw = params.storage.get({ name: STATUS_KEY });
  if (raw === undefined) return [];
  try {
    const parsed: unknown = JSON.parse(raw);
    return Array.isArray(parsed) ? (parsed as DeliveryReport[]) : [];
  } catch {
    return [];
  }
}

/**
 * Records a status callback: a log line (the number masked; a warning for failed and undelivered, with Twilio's
 * error code) and the report in adapter storage, which keeps the latest report per message, bounded.
 * Returns false when the callback names no message or status.
 */
export function recordStatus(params: { params: TwilioParams; storage: AdapterStorage; now: number; logger: Logger }): boolean {
  const fields = params.params;
  const messageSid = fields['MessageSid'] ?? fields['SmsSid'];
  const status = fields['MessageStatus'] ?? fields['SmsStatus'];
  if (messageSid === undefined || messageSid === '' || status === undefined || status === '') return false;
  const errorCode = fields['ErrorCode'] !== undefined && fields['ErrorCode'] !== '' ? fields['ErrorCode'] : undefined;
  const report: DeliveryReport = { messageSid, status, ...(errorCode !== undefined ? { errorCode } : {}), at: params.now };
  const line = { messageSid, status, errorCode, to: maskPhone({ phone: fields['To'] ?? '' }) };
  if (status === 'failed' || status === 'undelivered') params.logger.warn(line, 'SMS not delivered');
  else params.logger.info(line, 'SMS delivery status');
  const kept = readReports({ storage: params.storage }).filter((r) => r.messageSid !== messageSid);
  kept.push(report);
  params.storage.set({ name: STATUS_KEY, value: JSON.stringify(kept.slice(-MAX_REPORTS)) });
  return true;
}
