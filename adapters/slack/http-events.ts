import type { FastifyInstance } from 'fastify';
// Bolt's verifier module alone: its index loads the whole framework (express and its receivers, ~10 MB, ~170 ms).
import { verifySlackRequest } from '@slack/bolt/dist/receivers/verify-request.js';
import type { Logger } from 'pino';
import { JournalRefusedError } from '../../src/core/errors.js';
import type { RejectionRecorder } from '../../src/core/rejection.js';
import type { Clock } from '../../src/core/clock.js';
import { checkCallback, type SlackEventCallback } from './event-schema.js';
import { checkPayload, type SlackPress } from './presses.js';
import { errorMessage } from '../../src/util/error-text.js';

/** How far a request timestamp may be from now, either way (Slack's own rule is five minutes). */
export const SLACK_TIMESTAMP_TOLERANCE_SECONDS = 5 * 60;

/**
 * The Events API route on the gateway's HTTP server: the signature is checked with Bolt's own verifier on the
 * raw body, and a timestamp more than five minutes away from now is refused, in the past (Bolt) as in the future
 * (here; Bolt checks only the past): 401. `url_verification` is answered. A body of a shape the adapter does not
 * read is answered 200 and skipped (Slack would only send it again). Rejections are logged rate-limited. An
 * event is answered 200 only after it is journaled, so Slack retries whatever the gateway did not take (503 with
 * Retry-After while the disk is full). The same route takes interactivity (button presses): a form-encoded
 * `payload=` signed the same way, answered 200 at once (Slack wants it within 3 s) and handled after; a payload
 * that is not JSON or not a readable block_actions is 400.
 */
export function registerSlackEvents(params: {
  app: FastifyInstance;
  path: string;
  signingSecret: string;
  logger: Logger;
  rejections: RejectionRecorder;
  clock: Clock;
  handle: () => ((callback: SlackEventCallback) => Promise<void>) | undefined;
  press: () => ((press: SlackPress) => Promise<void>) | undefined;
}): void {
  const { logger, rejections, clock } = params;
  void params.app.register(async (scope) => {
    // The signature covers the exact bytes Slack sent: keep the body as text in this route only.
    scope.addContentTypeParser(['application/json', 'application/x-www-form-urlencoded'], { parseAs: 'string' }, (_request, body, done) => done(null, body));
    scope.post(params.path, async (request, reply) => {
      const raw = typeof request.body === 'string' ? request.body : '';
      const signature = request.headers['x-slack-signature'];
      const timestamp = Number(typeof request.headers['x-slack-request-timestamp'] === 'string' ? request.headers['x-slack-request-timestamp'] : 0);
      const now = clock.now();
      if (timestamp > Math.floor(now / 1000) + SLACK_TIMESTAMP_TOLERANCE_SECONDS) {
        rejections.reject({ source: request.ip, reason: 'stale_timestamp', logger, message: 'Slack event with a request timestamp in the future rejected' });
        return reply.code(401).send({ error: 'invalid timestamp' });
      }
      try {
        verifySlackRequest({
          signingSecret: params.signingSecret,
          body: raw,
          headers: { 'x-slack-signature': typeof signature === 'string' ? signature : '', 'x-slack-request-timestamp': timestamp },
          nowMilliseconds: now,
        });
      } catch (error) {
        const detail = errorMessage(error);
        rejections.reject({ source: request.ip, reason: 'bad_signature', logger, fields: { detail }, message: 'Slack event with a bad signature rejected' });
        return reply.code(401).send({ error: 'invalid signature' });
      }
      const contentType = String(request.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
      if (contentType === 'application/x-www-form-urlencoded') {
        const outcome = takeInteraction({ raw, press: params.press(), logger });
        if (outcome.status >= 400 && outcome.status < 500) {
          rejections.reject({ source: request.ip, reason: 'malformed', logger, fields: { issue: outcome.issue }, message: 'Slack interaction payload rejected' });
        }
        return reply.code(outcome.status).send(outcome.status === 200 ? '' : { error: outcome.issue });
      }
      let body: unknown;
      try {
        body = JSON.parse(raw);
      } catch {
        rejections.reject({ source: request.ip, reason: 'malformed', logger, message: 'Slack event body is not JSON' });
        return reply.code(400).send({ error: 'not JSON' });
      }
      const checked = checkCallback({ body });
      if (checked.kind === 'challenge') return reply.code(200).send({ challenge: checked.challenge });
      if (checked.kind === 'malformed') {
        rejections.reject({ source: request.ip, reason: 'malformed', logger, fields: { issue: checked.issue }, message: 'Slack event of an unexpected shape skipped' });
        return reply.code(200).send({});
      }
      if (checked.kind === 'skip') {
        logger.debug({ reason: checked.reason }, 'Slack callback skipped');
        return reply.code(200).send({});
      }
      const handle = params.handle();
      if (!handle) return reply.code(503).send({ error: 'the Slack adapter is not running yet' });
      try {
        await handle(checked.callback);
        return reply.code(200).send({});
      } catch (error) {
        // Disk full: the gateway logged it (rate-limited); Slack retries a 503 like any non-2xx answer.
        if (error instanceof JournalRefusedError) return reply.code(503).header('retry-after', String(error.retryAfterSeconds)).send({ error: 'try again later' });
        logger.error({ err: error }, 'Slack event could not be taken; Slack will retry');
        return reply.code(500).send({ error: 'try again' });
      }
    });
  });
}

/** What the route answers an interaction with, after handing a press on (not awaited: the answer must be quick). */
function takeInteraction(params: { raw: string; press: ((press: SlackPress) => Promise<void>) | undefined; logger: Logger }): { status: number; issue?: string } {
  const payload = new URLSearchParams(params.raw).get('payload');
  if (payload === null) return { status: 400, issue: 'no payload field' };
  let body: unknown;
  try {
    body = JSON.parse(payload);
  } catch {
    return { status: 400, issue: 'the payload is not JSON' };
  }
  const checked = checkPayload({ body });
  if (checked.kind === 'malformed') return { status: 400, issue: checked.issue };
  if (checked.kind === 'skip') {
    params.logger.debug({ reason: checked.reason }, 'Slack interaction skipped');
    return { status: 200 };
  }
  if (params.press === undefined) return { status: 503, issue: 'the Slack adapter is not running yet' };
  void params.press(checked.press);
  return { status: 200 };
}
