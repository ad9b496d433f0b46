import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Update } from 'grammy/types';
import type { Logger } from 'pino';

/** True when both strings are equal, compared in constant time. */
function sameSecret(params: { given: string; expected: string }): boolean {
  const a = Buffer.from(params.given);
  const b = Buffer.from(params.expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Registers the Telegram webhook route: the secret token header is checked (401 and a log line otherwise),
 * the body must be an update, and the reply waits until the update is journaled, so Telegram retries
 * whatever the gateway did not take.
 */
export function registerWebhook(params: {
  app: FastifyInstance;
  path: string;
  secretToken: string;
  logger: Logger;
  handle: () => ((update: Update) => Promise<void>) | undefined;
}): void {
  const { logger } = params;
  params.app.post(params.path, async (request, reply) => {
    const header = request.headers['x-telegram-bot-api-secret-token'];
    if (typeof header !== 'string' || !sameSecret({ given: header, expected: params.secretToken })) {
      logger.warn({ ip: request.ip, hasHeader: header !== undefined }, 'Telegram webhook request with a wrong secret token rejected');
      return reply.code(401).send({ error: 'unauthorized' });
    }
    const body: unknown = request.body;
    if (typeof body !== 'object' || body === null || typeof (body as { update_id?: unknown }).update_id !== 'number') {
      logger.warn('Telegram webhook request without an update rejected');
      return reply.code(400).send({ error: 'not a Telegram update' });
    }
    const handle = params.handle();
    if (!handle) return reply.code(503).send({ error: 'the Telegram adapter is not running yet' });
    try {
      await handle(body as Update);
      return reply.code(200).send({});
    } catch (error) {
      logger.error({ err: error }, 'Telegram webhook update could not be taken; Telegram will retry');
      return reply.code(500).send({ error: 'try again' });
    }
  });
}
