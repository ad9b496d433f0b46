import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { validateRequest } from 'twilio/lib/webhooks/webhooks.js';
import { JournalRefusedError } from '../../src/core/errors.js';
import type { RejectionRecorder } from '../../src/core/rejection.js';
import { checkForm, twilioInboundSchema, twilioStatusSchema } from './form-schema.js';
import type { TwilioParams } from './inbound.js';
import type { MediaLinks } from './media-links.js';

/** The answer to an incoming message: "received, nothing to say" (replies go out through the REST API). */
export const EMPTY_TWIML = '<?xml version="1.0" encoding="UTF-8"?><Response></Response>';

/** Largest webhook body taken: Twilio's forms are a few kilobytes even with ten media URLs. */
export const WEBHOOK_BODY_LIMIT = 64 * 1024;

/** Where the adapter's routes live, locally and as Twilio sees them. */
export interface SmsRoutePaths {
  /** Local path of the incoming-message webhook (platforms.sms.webhook_path). */
  readonly webhookPath: string;
  /** The URL Twilio was configured with (platforms.sms.webhook_url); the signature covers it. */
  readonly webhookUrl: string;
  /** Local path of the status callback route. */
  readonly statusPath: string;
  /** The status callback URL given to Twilio with each message; its signatures cover it. */
  readonly statusUrl: string;
  /** Local path prefix of the signed media links. */
  readonly mediaPath: string;
}

/** What the routes hand over to the running adapter. */
export interface SmsRouteHandlers {
  /**
   * Takes an incoming message (resolves once it is journaled). Resolves undefined when the adapter is not running
   * and did not start within a short wait (Twilio then gets 503): Twilio does not retry incoming-message webhooks
   * by default, so one arriving while the adapter (re)starts waits for it rather than being turned away.
   */
  readonly message: () => Promise<((params: TwilioParams) => Promise<void>) | undefined>;
  /** Records a status callback; undefined while the adapter is not running. */
  readonly status: () => ((params: TwilioParams) => void) | undefined;
}

/** The form fields of a request body (the last value of a repeated field wins). */
function formFields(params: { body: unknown }): TwilioParams {
  return Object.fromEntries(new URLSearchParams(typeof params.body === 'string' ? params.body : ''));
}

/**
 * Registers the SMS routes in their own scope: the incoming-message webhook and the status callback (both
 * form-encoded, size-capped, X-Twilio-Signature checked against the public URL: 403 otherwise; signed fields
 * of a shape the route does not read are answered 2xx and skipped), and the signed media links Twilio fetches
 * MMS pictures from. Rejections are logged rate-limited. A message is answered with empty TwiML only after it is
 * journaled, so Twilio retries whatever the gateway did not take.
 */
export function registerSmsRoutes(params: {
  app: FastifyInstance;
  paths: SmsRoutePaths;
  authToken: string;
  links: MediaLinks;
  handlers: SmsRouteHandlers;
  logger: Logger;
  rejections: RejectionRecorder;
}): void {
  const { paths, logger, rejections } = params;
  void params.app.register(async (scope) => {
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => done(null, body));
    /** The signed form fields, or undefined after answering 403. */
    const verified = async (request: FastifyRequest, reply: FastifyReply, url: string): Promise<TwilioParams | undefined> => {
      const fields = formFields({ body: request.body });
      const signature = request.headers['x-twilio-signature'];
      if (typeof signature === 'string' && validateRequest(params.authToken, signature, url, fields)) return fields;
      rejections.reject({
        source: request.ip,
        reason: 'bad_signature',
        logger,
        fields: { path: request.url.split('?')[0], hasSignature: typeof signature === 'string' },
        message: 'Twilio request with a missing or wrong X-Twilio-Signature rejected',
      });
      await reply.code(403).type('text/plain').send('invalid signature');
      return undefined;
    };

    scope.post(paths.webhookPath, { bodyLimit: WEBHOOK_BODY_LIMIT }, async (request, reply) => {
      const fields = await verified(request, reply, paths.webhookUrl);
      if (fields === undefined) return reply;
      const checked = checkForm({ fields, schema: twilioInboundSchema });
      if (checked.kind === 'malformed') {
        rejections.reject({ source: request.ip, reason: 'malformed', logger, fields: { issue: checked.issue }, message: 'Twilio incoming-message webhook of an unexpected shape skipped' });
        return reply.code(200).type('text/xml').send(EMPTY_TWIML);
      }
      const handle = await params.handlers.message();
      if (!handle) return reply.code(503).type('text/plain').send('the SMS adapter is not running yet');
      try {
        await handle(fields);
      } catch (error) {
        // Disk full: the gateway logged it (rate-limited) and the adapter holds the message; Twilio retries a 5xx
        // only where the webhook URL's connection overrides (#rp=5xx) say so.
        if (error instanceof JournalRefusedError) return reply.code(503).header('retry-after', String(error.retryAfterSeconds)).type('text/plain').send('try again later');
        logger.error({ err: error, messageSid: fields['MessageSid'] }, 'SMS could not be taken; Twilio will retry');
        return reply.code(500).type('text/plain').send('try again');
      }
      return reply.code(200).type('text/xml').send(EMPTY_TWIML);
    });

    scope.post(paths.statusPath, { bodyLimit: WEBHOOK_BODY_LIMIT }, async (request, reply) => {
      const fields = await verified(request, reply, paths.statusUrl);
      if (fields === undefined) return reply;
      const checked = checkForm({ fields, schema: twilioStatusSchema });
      if (checked.kind === 'malformed') {
        rejections.reject({ source: request.ip, reason: 'malformed', logger, fields: { issue: checked.issue }, message: 'Twilio status callback of an unexpected shape skipped' });
        return reply.code(204).send();
      }
      const record = params.handlers.status();
      if (!record) return reply.code(503).type('text/plain').send('the SMS adapter is not running yet');
      record(fields);
      return reply.code(204).send();
    });

    scope.get(`${paths.mediaPath}/:id/:name`, async (request, reply) => {
      const [path = '', search = ''] = request.url.split('?');
      const query = new URLSearchParams(search);
      const found = params.links.check({ path, expires: query.get('expires') ?? undefined, sig: query.get('sig') ?? undefined });
      if (found.kind !== 'ok') {
        rejections.reject({ source: request.ip, reason: 'bad_link', logger, fields: { path, why: found.kind }, message: 'MMS media link refused' });
        return reply.code(found.kind === 'forbidden' ? 403 : 410).type('text/plain').send(found.kind === 'forbidden' ? 'invalid link' : 'link expired');
      }
      const size = await stat(found.file).then((info) => (info.isFile() ? info.size : undefined), () => undefined);
      if (size === undefined) return reply.code(404).type('text/plain').send('file no longer available');
      return reply.code(200).header('content-length', size).type(found.contentType).send(createReadStream(found.file));
    });
  });
}
