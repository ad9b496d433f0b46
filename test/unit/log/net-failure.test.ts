import assert from 'node:assert/strict';
import { test } from 'node:test';
import { GrammyError } from 'grammy';
import { pino } from 'pino';
import { expectedFailureCause, failureLog, networkCode } from '../../../src/util/net-failure.js';
import { closedPort } from '../../helpers/ports.js';

test('a refused fetch (undici) is "connection refused <host:port>", from the error fields', async () => {
  const port = await closedPort();
  const error = await fetch(`http://127.0.0.1:${port}/x`).then(() => undefined, (e: unknown) => e);
  assert.equal(networkCode(error), 'ECONNREFUSED');
  assert.equal(expectedFailureCause({ error }), `connection refused 127.0.0.1:${port}`);
});

test('node-fetch style wrapping (grammy HttpError.error, code only in a message) still names the address', () => {
  const inner = Object.assign(new Error('request to http://127.0.0.1:9/bot***/getMe failed, reason: connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' });
  const outer = Object.assign(new Error("Network request for 'getMe' failed!"), { error: inner });
  assert.equal(expectedFailureCause({ error: outer }), 'connection refused 127.0.0.1:9');
});

test('a port fetch refuses as unsafe (bad port) is named as such', async () => {
  const error = await fetch('http://127.0.0.1:1/').then(() => undefined, (e: unknown) => e);
  assert.equal(expectedFailureCause({ error }), 'fetch refuses this port as unsafe (use another port)');
});

test('DNS, reset, timeout and TLS failures are named with their host', () => {
  const dns = Object.assign(new Error('getaddrinfo ENOTFOUND api.example.invalid'), { code: 'ENOTFOUND', hostname: 'api.example.invalid' });
  assert.equal(expectedFailureCause({ error: new Error('fetch failed', { cause: dns }) }), 'host not found api.example.invalid');
  const reset = Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET', address: '10.0.0.2', port: 443 });
  assert.equal(expectedFailureCause({ error: reset }), 'connection reset 10.0.0.2:443');
  const timeout = Object.assign(new Error('Connect Timeout Error'), { code: 'UND_ERR_CONNECT_TIMEOUT' });
  assert.equal(expectedFailureCause({ error: new TypeError('fetch failed', { cause: timeout }) }), 'connection timed out');
  const aborted = new DOMException('The operation was aborted due to timeout', 'TimeoutError');
  assert.equal(expectedFailureCause({ error: aborted }), 'timed out');
  const tls = Object.assign(new Error('self-signed certificate'), { code: 'DEPTH_ZERO_SELF_SIGNED_CERT', address: '127.0.0.1', port: 993 });
  assert.equal(expectedFailureCause({ error: tls }), 'TLS failure 127.0.0.1:993 (DEPTH_ZERO_SELF_SIGNED_CERT)');
  const alt = Object.assign(new Error("Hostname/IP does not match certificate's altnames"), { code: 'ERR_TLS_CERT_ALTNAME_INVALID', host: 'x' });
  assert.equal(expectedFailureCause({ error: alt }), 'TLS failure (ERR_TLS_CERT_ALTNAME_INVALID)');
});

test("a platform's 401/404 is the status with its meaning: grammy, Slack, discord.js, HTTP status fields", () => {
  const grammy401 = new GrammyError('Call to getMe failed!', { ok: false, error_code: 401, description: 'Unauthorized' }, 'getMe', {});
  assert.equal(expectedFailureCause({ error: grammy401 }), '401 Unauthorized: the token was rejected');
  const grammy404 = new GrammyError('Call to getMe failed!', { ok: false, error_code: 404, description: 'Not Found' }, 'getMe', {});
  assert.equal(expectedFailureCause({ error: grammy404 }), '404 Not Found: wrong token or API address');
  const slack = Object.assign(new Error('An API error occurred: invalid_auth'), { code: 'slack_webapi_platform_error', data: { ok: false, error: 'invalid_auth' } });
  assert.equal(expectedFailureCause({ error: slack }), '401 Unauthorized: the token was rejected (invalid_auth)');
  const discord = Object.assign(new Error('An invalid token was provided.'), { code: 'TokenInvalid' });
  assert.equal(expectedFailureCause({ error: discord }), '401 Unauthorized: the token was rejected');
  assert.equal(expectedFailureCause({ error: Object.assign(new Error('Bad Gateway'), { status: 502 }) }), '502 Bad Gateway');
  const imap = Object.assign(new Error('Command failed'), { authenticationFailed: true });
  assert.equal(expectedFailureCause({ error: imap }), 'login refused: the server rejected the username or password');
});

test('anything else is not expected: no cause, and the log line keeps the error (with its stack)', () => {
  const bug = new TypeError("Cannot read properties of undefined (reading 'id')");
  assert.equal(expectedFailureCause({ error: bug }), undefined);
  assert.equal(expectedFailureCause({ error: Object.assign(new Error('x'), { code: 'slack_webapi_request_error' }) }), undefined);
  const log = failureLog({ error: bug, msg: 'adapter failed', logger: pino({ level: 'info' }) });
  assert.equal(log.msg, 'adapter failed');
  assert.equal(log.fields.err, bug);
});

test('failureLog: an expected failure gets its cause in the message and no error object unless the level is debug', () => {
  const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED', address: '127.0.0.1', port: 9 });
  const info = failureLog({ error: refused, msg: 'adapter failed', logger: pino({ level: 'info' }) });
  assert.equal(info.msg, 'adapter failed: connection refused 127.0.0.1:9');
  assert.deepEqual(info.fields, { cause: 'connection refused 127.0.0.1:9' });
  assert.equal(info.text, 'connection refused 127.0.0.1:9');
  const wrapped = failureLog({ error: Object.assign(new Error("Network request for 'getMe' failed!"), { error: refused }), msg: 'x', logger: pino({ level: 'info' }) });
  assert.equal(wrapped.text, "Network request for 'getMe' failed! (connection refused 127.0.0.1:9)");
  const debug = failureLog({ error: refused, msg: 'adapter failed', logger: pino({ level: 'debug' }) });
  assert.equal(debug.fields.err, refused);
});

test("failureLog: a message that names which server keeps its words: the raw node error alone becomes the cause", () => {
  const logger = pino({ level: 'info' });
  const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1143'), { code: 'ECONNREFUSED', address: '127.0.0.1', port: 1143 });
  assert.equal(failureLog({ error: refused, msg: 'x', logger }).text, 'connection refused 127.0.0.1:1143');
  // The IMAP adapter's own message (already in words) stays whole: "IMAP" says which of the two mail servers it was.
  const worded = new Error('IMAP 127.0.0.1:1143: connection refused 127.0.0.1:1143', { cause: refused });
  assert.equal(failureLog({ error: worded, msg: 'x', logger }).text, 'IMAP 127.0.0.1:1143: connection refused 127.0.0.1:1143');
  // A wrapper quoting the raw error keeps its words, with the cause after them.
  const quoting = new Error('IMAP 127.0.0.1:1143: connect ECONNREFUSED 127.0.0.1:1143 [ECONNREFUSED]', { cause: refused });
  assert.equal(failureLog({ error: quoting, msg: 'x', logger }).text, 'IMAP 127.0.0.1:1143: connect ECONNREFUSED 127.0.0.1:1143 [ECONNREFUSED] (connection refused 127.0.0.1:1143)');
});
