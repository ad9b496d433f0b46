import { randomUUID } from 'node:crypto';
import type http from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocket, WebSocketServer, type RawData } from 'ws';
import { systemClock } from '../../../src/core/clock.js';
import type { SlackState } from './state.js';
import type { AckRecord } from './types.js';

interface Pending {
  resolve: (ack: AckRecord) => void;
  reject: (error: Error) => void;
}

/** Slack's Socket Mode side: tickets from apps.connections.open, hello, envelopes, acks, pings, disconnects. */
export class SocketModeServer {
  /** Every ack received, in arrival order. */
  readonly acks: AckRecord[] = [];
  private readonly state: SlackState;
  private readonly wss = new WebSocketServer({ noServer: true, autoPong: false });
  private readonly sockets = new Set<WebSocket>();
  private readonly tickets = new Set<string>();
  private readonly pending = new Map<string, Pending>();
  private silent = false;

  constructor(params: { state: SlackState }) {
    this.state = params.state;
  }

  /** Issues a one-time ws:// URL, as apps.connections.open does. */
  issueUrl(): string {
    const ticket = randomUUID();
    this.tickets.add(ticket);
    return `${this.state.baseUrl.replace(/^http/, 'ws')}/link/?ticket=${ticket}&app_id=${this.state.identity.appId}`;
  }

  /** Accepts an upgrade carrying a valid unused ticket; anything else gets 401. */
  upgrade(params: { req: http.IncomingMessage; socket: Duplex; head: Buffer }): void {
    const ticket = new URL(params.req.url ?? '/', 'http://127.0.0.1').searchParams.get('ticket') ?? '';
    if (!this.tickets.delete(ticket)) {
      params.socket.end('HTTP/1.1 401 Unauthorized\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    this.wss.handleUpgrade(params.req, params.socket, params.head, (ws) => this.accept(ws));
  }

  /** Open connections. */
  get connections(): number {
    return [...this.sockets].filter((s) => s.readyState === WebSocket.OPEN).length;
  }

  /** Sends an envelope to the newest open connection and resolves with its ack; rejects after `timeoutMs` of real time. */
  async send(params: { envelope: { envelope_id: string } & Record<string, unknown>; timeoutMs: number }): Promise<AckRecord> {
    if (this.silent) throw new Error('FakeSlack: goSilent() is in effect, so no envelope can be sent; call speak() first');
    const watchdog = new AbortController();
    const deadline = systemClock.sleep(params.timeoutMs, watchdog.signal);
    try {
      const socket = await this.openSocket(deadline, params.timeoutMs);
      const id = params.envelope.envelope_id;
      const acked = new Promise<AckRecord>((resolve, reject) => this.pending.set(id, { resolve, reject }));
      socket.send(JSON.stringify(params.envelope));
      return await Promise.race([
        acked,
        deadline.then(() => {
          throw new Error(`FakeSlack: envelope ${id} was not acknowledged within ${params.timeoutMs} ms`);
        }),
      ]);
    } finally {
      this.pending.delete(params.envelope.envelope_id);
      watchdog.abort();
    }
  }

  /** Stops answering pings and sending anything, keeping sockets open (to test liveness detection). */
  goSilent(): void {
    this.silent = true;
  }

  /** Ends goSilent(). */
  speak(): void {
    this.silent = false;
  }

  /** Sends Slack's `disconnect` message (e.g. reason 'refresh_requested' or 'warning') to every connection. */
  requestDisconnect(params: { reason: string }): void {
    const message = JSON.stringify({ type: 'disconnect', reason: params.reason, debug_info: { host: 'fakeslack' } });
    for (const socket of this.sockets) if (socket.readyState === WebSocket.OPEN) socket.send(message);
  }

  /** Destroys every connection without a close handshake. */
  dropConnections(): void {
    for (const socket of this.sockets) socket.terminate();
    this.sockets.clear();
    this.state.changed();
  }

  /** Drops connections, fails pending deliveries, and stops accepting. */
  async close(): Promise<void> {
    this.dropConnections();
    for (const [id, pending] of this.pending) pending.reject(new Error(`FakeSlack closed before envelope ${id} was acknowledged`));
    this.pending.clear();
    await new Promise<void>((resolve) => this.wss.close(() => resolve()));
  }

  private accept(ws: WebSocket): void {
    this.sockets.add(ws);
    ws.on('ping', (data: Buffer) => {
      if (!this.silent) ws.pong(data);
    });
    ws.on('message', (data: RawData, isBinary: boolean) => {
      if (!isBinary) this.onMessage(ws, rawText(data));
    });
    ws.on('close', () => {
      this.sockets.delete(ws);
      this.state.changed();
    });
    ws.on('error', () => ws.terminate());
    if (!this.silent) {
      ws.send(JSON.stringify({
        type: 'hello',
        num_connections: this.connections,
        debug_info: { host: 'fakeslack', build_number: 1, approximate_connection_time: 18060 },
        connection_info: { app_id: this.state.identity.appId },
      }));
    }
    this.state.changed();
  }

  private onMessage(ws: WebSocket, text: string): void {
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch {
      return;
    }
    if (typeof message !== 'object' || message === null) return;
    const record = message as Record<string, unknown>;
    if (record['type'] === 'ping') {
      if (!this.silent) ws.send(JSON.stringify({ ...record, type: 'pong' }));
      return;
    }
    const envelopeId = record['envelope_id'];
    if (typeof envelopeId !== 'string') return;
    const ack: AckRecord = { envelope_id: envelopeId, payload: record['payload'] ?? {}, at: this.state.clock.now() };
    this.acks.push(ack);
    this.pending.get(envelopeId)?.resolve(ack);
    this.state.changed();
  }

  private async openSocket(deadline: Promise<void>, timeoutMs: number): Promise<WebSocket> {
    let timedOut = false;
    void deadline.then(() => (timedOut = true), () => undefined);
    for (;;) {
      const open = [...this.sockets].filter((s) => s.readyState === WebSocket.OPEN);
      const newest = open[open.length - 1];
      if (newest) return newest;
      if (timedOut) throw new Error(`FakeSlack: no Socket Mode connection within ${timeoutMs} ms (did the app start?)`);
      await new Promise<void>((resolve) => {
        const stop = this.state.subscribe(() => {
          stop();
          resolve();
        });
        void deadline.then(() => {
          stop();
          resolve();
        }, () => undefined);
      });
    }
  }
}

function rawText(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.from(data instanceof ArrayBuffer ? new Uint8Array(data) : data).toString('utf8');
}
