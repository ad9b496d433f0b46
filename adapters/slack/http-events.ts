import type { FastifyInstance } from 'fastify';
import { verifySlackRequest } from '@slack/bolt';
import type { Logger } from 'pino';

/** An Events API callback body, as far as the route reads it. */
export interface SlackCallbackBody {
  readonly type?: string;
  readonly challenge?: string;
  readonly event_id?: string;
  readonly event?: unknown;
}

/**
 * The Events API route on the gateway's HTTP server: the signature is checked with Bolt's own verifier on the
 * raw body (401 and a log line otherwise), `url_verification` is answered, and an event is answered 200 only
 * after it is journaled, so Slack retries whatever the gateway did not take.
 */
export function registerSlackEvents(params: {
  app: FastifyInstance;
  path: string;
  signingSecret: string;
  logger: Logger;
  handle: () => ((body: SlackCallbackBody) => Promise<void>) | undefined;
}): void {
  const { logger } = params;
  void params.app.register(async (scope) => {
    // The signature covers the exact bytes Slack sent: keep the body as text in this route only.
    scope.addContentTypeParser(['application/json', 'application/x-www-form-urlencoded'], { parseAs: 'string' }, (_request, body, done) => done(null, body));
    scope.post(params.path, async (request, reply) => {
      const raw = typeof request.body === 'string' ? request.body : '';
      const signature = request.headers['x-slack-signature'];
      const timestamp = request.headers['x-slack-request-timestamp'];
      try {
        verifySlackRequest({
          signingSecret: params.signingSecret,
          body: raw,
          headers: {
            'x-slack-signature': typeof signature === 'string' ? signature : '',
            'x-slack-request-timestamp': Number(typeof timestamp === 'string' ? timestamp : 0),
          },
        });
      } catch (error) {
        logger.warn({ ip: request.ip, reason: error instanceof Error ? error.message : String(error) }, 'Slack event with a bad signature rejected');
        return reply.code(401).send({ error: 'invalid signature' });
      }
      let body: SlackCallbackBody;
      try {
        body = JSON.parse(raw) as SlackCallbackBody;
      } catch {
        logger.warn('Slack event body is not JSON');
        return reply.code(400).send({ error: 'not JSON' });
      }
      if (body.type === 'url_verification') return reply.code(200).send({ challenge: body.challenge });
      const handle = params.handle();
      if (!handle) return reply.code(503).send({ error: 'the Slack adapter is not running yet' });
      try {
        await handle(body);
        return reply.code(200).send({});
      } catch (error) {
        logger.error({ err: error }, 'Slack event could not be taken; Slack will retry');
        return reply.code(500).send({ error: 'try again' });
      }
    });
  });
}
