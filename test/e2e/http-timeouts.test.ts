import assert from 'node:assert/strict';
import net from 'node:net';
import { test } from 'node:test';
import { pino } from 'pino';
import { createHttpServer, DEFAULT_HTTP_TIMEOUTS, type GatewayHttp } from '../../src/gateway/http/server.js';
import { systemClock } from '../../src/core/clock.js';

// Node's HTTP server times requests with its own timers, so these tests use short real timeouts instead of a fake clock.
const timeouts = { headersMs: 400, requestMs: 600, checkIntervalMs: 100 };

async function server(): Promise<{ http: GatewayHttp; port: number }> {
  const http = createHttpServer({
    host: '127.0.0.1',
    port: 0,
    bodyLimitBytes: 64 * 1024,
    logger: pino({ level: 'silent' }),
    health: () => ({ status: 'ok', profile: 'work', uptimeSeconds: 0, adapters: [] }),
    clock: systemClock,
    timeouts,
  });
  await http.webhooks.mount({ name: 'telegram', register: ({ app }) => {
    app.post('/hook', async (request) => ({ got: request.body }));
    // A handler that takes longer than the request timeout (journaling, waiting for an adapter): not cut off.
    app.post('/slow', async () => {
      await new Promise((resolve) => setTimeout(resolve, 1500));
      return { slow: true };
    });
  } });
  const { port } = await http.listen();
  return { http, port };
}

/** Opens a raw connection, runs `drive` on it, and resolves with what the server sent and when it closed (ms after connecting). */
function connection(params: { port: number; drive: (socket: net.Socket) => void; giveUpMs: number }): Promise<{ closedAfterMs: number | undefined; received: string }> {
  return new Promise((resolve) => {
    const started = Date.now();
    let received = '';
    const socket = net.connect({ host: '127.0.0.1', port: params.port }, () => params.drive(socket));
    socket.on('data', (chunk: Buffer) => {
      received += chunk.toString('latin1');
    });
    socket.on('error', () => undefined);
    const giveUp = setTimeout(() => {
      socket.destroy();
      resolve({ closedAfterMs: undefined, received });
    }, params.giveUpMs);
    socket.on('close', () => {
      clearTimeout(giveUp);
      resolve({ closedAfterMs: Date.now() - started, received });
    });
  });
}

test('the gateway HTTP server defaults to 10 s for headers and for a whole request', () => {
  assert.equal(DEFAULT_HTTP_TIMEOUTS.headersMs, 10_000);
  assert.equal(DEFAULT_HTTP_TIMEOUTS.requestMs, 10_000);
});

test('a trickled body, trickled headers and a connection that sends nothing are all cut off; a normal or slow-to-answer request is unaffected', { timeout: 20_000 }, async () => {
  const { http, port } = await server();
  const timers: NodeJS.Timeout[] = [];
  try {
    const head = `POST /hook HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n`;
    const [body, headers, idle] = await Promise.all([
      connection({
        port,
        giveUpMs: 4000,
        drive: (socket) => {
          socket.write(head);
          timers.push(setInterval(() => socket.writable && socket.write('x'), 50));
        },
      }),
      connection({
        port,
        giveUpMs: 4000,
        drive: (socket) => {
          // One character every 50 ms: the headers would take about 5 s.
          let n = 0;
          timers.push(setInterval(() => socket.writable && socket.write(head.charAt(n++)), 50));
        },
      }),
      connection({ port, giveUpMs: 4000, drive: () => undefined }),
    ]);
    assert.ok(body.closedAfterMs !== undefined && body.closedAfterMs < 2000, `a trickled body was cut off after ${body.closedAfterMs} ms`);
    assert.match(body.received, /^HTTP\/1\.1 408/, 'the trickler is told it was too slow');
    assert.ok(headers.closedAfterMs !== undefined && headers.closedAfterMs < 2000, `trickled headers were cut off after ${headers.closedAfterMs} ms`);
    assert.ok(idle.closedAfterMs !== undefined && idle.closedAfterMs < 2000, `a silent connection was closed after ${idle.closedAfterMs} ms`);
    const res = await fetch(`http://127.0.0.1:${port}/hook`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"n":1}' });
    assert.deepEqual([res.status, await res.text()], [200, '{"got":{"n":1}}']);
    const slow = await fetch(`http://127.0.0.1:${port}/slow`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    assert.deepEqual([slow.status, await slow.text()], [200, '{"slow":true}'], 'only receiving the request is timed, not answering it');
  } finally {
    for (const timer of timers) clearInterval(timer);
    await http.close();
  }
});
