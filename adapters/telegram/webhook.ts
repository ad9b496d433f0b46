import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { JournalRefusedError } from '../../src/core/errors.js';
import type { RejectionRecorder } from '../../src/core/rejection.js';
import { checkUpdate, type TelegramUpdate } from './update-schema.js';

/** True when both strings are equal, compared in constant time. */
function sameSecret(params: { given: string; expected: string }): boolean {
  const a = Buffer.from(params.given);
  const b = Buffer.from(params.expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Registers the Telegram webhook route: the secret token header is checked (401), the body must be an update
 * (400); an update whose message has a shape the adapter does not read is answered 200 and skipped (Telegram
 * would only send it again). Rejections are logged rate-limited. The reply to a readable update waits until it
 * is journaled, so Telegram retries whatever the gateway did not take (503 with Retry-After while the disk is full).
 */
export function registerWebhook(params: {
  app: FastifyInstance;
  path: string;
  secretToken: string;
  logger: Logger;
  rejections: RejectionRecorder;
  handle: () => ((update: TelegramUpdate) => Promise<void>) | undefined;
}): void {
  const { logger, rejections } = params;
  params.app.post(params.path, async (request, reply) => {
    const header = request.headers['x-telegram-bot-api-secret-token'];
    if (typeof header !== 'string' || !sameSecret({ given: header, expected: params.secretToken })) {
      rejections.reject({ source: request.ip, reason: 'bad_token', logger, fields: { hasHeader: header !== undefined }, message: 'Telegram webhook request with a wrong secret token rejected' });
      return reply.code(401).send({ error: 'unauthorized' });
    }
    const checked = checkUpdate({ body: request.body });
    if (checked.kind === 'not_update') {
      rejections.reject({ source: request.ip, reason: 'malformed', logger, message: 'Telegram webhook request without an update rejected' });
      return reply.code(400).send({ error: 'not a Telegram update' });
    }
    if (checked.kind === 'malformed') {
      rejections.reject({ source: request.ip, reason: 'malformed', logger, fields: { updateId: checked.updateId, issue: checked.issue }, message: 'Telegram update of an unexpected shape skipped' });
      return reply.code(200).send({});
    }
    const handle = params.handle();
    if (!handle) return reply.code(503).send({ error: 'the Telegram adapter is not running yet' });
    try {
      await handle(checked.update);
      return reply.code(200).send({});
    } catch (error) {
      // Disk full: the gateway logged it (rate-limited); Telegram retries a 503 like any non-2xx answer.
      if (error instanceof JournalRefusedError) return reply.code(503).header('retry-after', String(error.retryAfterSeconds)).send({ error: 'try again later' });
      logger.error({ err: error }, 'Telegram webhook update could not be taken; Telegram will retry');
      return reply.code(500).send({ error: 'try again' });
    }
  });
}
