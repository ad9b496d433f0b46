import type http from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import { guildCreateJson, userJson } from './payloads.js';
import { RESUMABLE_CLOSE_CODES, GatewaySession } from './session.js';
import type { DiscordState } from './state.js';

/** Path of the gateway URL handed out by GET /gateway/bot. */
export const GATEWAY_PATH = '/gateway';
/** Path of READY's resume_gateway_url. */
export const RESUME_PATH = '/gateway-resume';

/** Discord's gateway on the fake's port: HELLO, IDENTIFY → READY + GUILD_CREATE, heartbeats, RESUME with replay, close codes. */
export class DiscordGateway {
  /** IDENTIFY payloads accepted (their intents recorded in `identifyIntents`). */
  identifies = 0;
  /** RESUMEs accepted. */
  resumes = 0;
  /** Heartbeats acknowledged. */
  heartbeats = 0;
  /** Intents of every accepted IDENTIFY, in order. */
  readonly identifyIntents: number[] = [];
  /** Paths RESUMEs arrived on, in order. */
  readonly resumePaths: string[] = [];
  /** Live sessions by session_id (connected or waiting for a RESUME). */
  readonly sessions = new Map<string, GatewaySession>();
  private readonly wss = new WebSocketServer({ noServer: true });
  private readonly state: DiscordState;
  private readonly token: string;
  private readonly heartbeatIntervalMs: number;
  private wsBase = '';

  constructor(params: { state: DiscordState; token: string; heartbeatIntervalMs: number }) {
    this.state = params.state;
    this.token = params.token;
    this.heartbeatIntervalMs = params.heartbeatIntervalMs;
  }

  /** Sets the ws:// origin used for the gateway and resume URLs. */
  setOrigin(params: { port: number }): void {
    this.wsBase = `ws://127.0.0.1:${params.port}`;
  }

  /** The URL GET /gateway/bot returns. */
  get url(): string {
    return `${this.wsBase}${GATEWAY_PATH}`;
  }

  /** Accepts WebSocket upgrades on the gateway and resume paths; refuses anything else. */
  handleUpgrade(req: http.IncomingMessage, socket: Duplex, head: Buffer): void {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname !== GATEWAY_PATH && url.pathname !== RESUME_PATH) {
      socket.destroy();
      return;
    }
    this.wss.handleUpgrade(req, socket, head, (ws) => this.accept({ ws, path: url.pathname, query: url.searchParams }));
  }

  /**
   * Sends a dispatch to every session that has `intent` (when given); disconnected resumable sessions buffer it
   * for replay. `view` tailors the payload per session (e.g. MESSAGE_CONTENT redaction).
   */
  dispatch(params: { t: string; d: unknown; intent?: number; view?: (params: { intents: number }) => unknown }): void {
    for (const session of this.sessions.values()) {
      if (params.intent !== undefined && (session.intents & params.intent) === 0) continue;
      session.dispatch({ t: params.t, d: params.view ? params.view({ intents: session.intents }) : params.d });
    }
  }

  /** Closes every connected socket with `code`; sessions survive only for resumable codes. */
  async closeWith(params: { code: number; reason?: string }): Promise<void> {
    const closing: Promise<void>[] = [];
    for (const session of [...this.sessions.values()]) {
      const socket = session.socket;
      if (!RESUMABLE_CLOSE_CODES.has(params.code)) this.sessions.delete(session.id);
      if (!socket || socket.readyState !== socket.OPEN) continue;
      session.socket = undefined;
      closing.push(new Promise<void>((resolve) => socket.once('close', () => resolve())));
      socket.close(params.code, params.reason ?? `closed by FakeDiscord with ${params.code}`);
    }
    await Promise.all(closing);
  }

  /** Sends a non-dispatch opcode (7 RECONNECT, 9 INVALID_SESSION, 1 HEARTBEAT request) to every connected socket. */
  sendOp(params: { op: number; d: unknown }): void {
    if (params.op === 9 && params.d === false) {
      for (const session of this.sessions.values()) session.socket?.send(JSON.stringify({ op: 9, d: false, s: null, t: null }));
      this.sessions.clear();
      return;
    }
    for (const session of this.sessions.values()) session.socket?.send(JSON.stringify({ op: params.op, d: params.d, s: null, t: null }));
  }

  /** How many sessions have an open socket. */
  get connected(): number {
    return [...this.sessions.values()].filter((session) => session.connected).length;
  }

  /** Terminates every socket. */
  close(): void {
    for (const ws of this.wss.clients) ws.terminate();
    this.sessions.clear();
    this.wss.close();
  }

  private accept(params: { ws: WebSocket; path: string; query: URLSearchParams }): void {
    const { ws } = params;
    if (params.query.get('v') !== '10') {
      ws.close(4012, 'Invalid API version');
      return;
    }
    if ((params.query.get('encoding') ?? 'json') !== 'json') {
      ws.close(4002, 'Decode error: only encoding=json is supported');
      return;
    }
    let session: GatewaySession | undefined;
    ws.on('message', (data: RawData) => {
      session = this.onFrame({ ws, path: params.path, session, data });
    });
    ws.on('close', (code: number) => {
      if (!session || session.socket !== ws) return;
      session.socket = undefined;
      if (code === 1000 || code === 1001) this.sessions.delete(session.id);
    });
    ws.send(JSON.stringify({ op: 10, d: { heartbeat_interval: this.heartbeatIntervalMs }, s: null, t: null }));
  }

  private onFrame(params: { ws: WebSocket; path: string; session: GatewaySession | undefined; data: RawData }): GatewaySession | undefined {
    const { ws, session } = params;
    let frame: { op?: unknown; d?: unknown };
    try {
      frame = JSON.parse(rawText(params.data)) as { op?: unknown; d?: unknown };
    } catch {
      ws.close(4002, 'Decode error');
      return session;
    }
    const d = (typeof frame.d === 'object' && frame.d !== null ? frame.d : {}) as Record<string, unknown>;
    switch (frame.op) {
      case 1:
        this.heartbeats += 1;
        ws.send(JSON.stringify({ op: 11, d: null, s: null, t: null }));
        return session;
      case 2:
        if (session) ws.close(4005, 'Already authenticated');
        else if (d['token'] !== this.token) ws.close(4004, 'Authentication failed');
        else return this.identify({ ws, d });
        return session;
      case 6:
        if (session) ws.close(4005, 'Already authenticated');
        else if (d['token'] !== this.token) ws.close(4004, 'Authentication failed');
        else return this.resume({ ws, path: params.path, d });
        return session;
      case 3:
      case 4:
      case 8:
        if (!session) ws.close(4003, 'Not authenticated');
        return session;
      default:
        ws.close(4001, 'Unknown opcode');
        return session;
    }
  }

  private identify(params: { ws: WebSocket; d: Record<string, unknown> }): GatewaySession {
    const intents = typeof params.d['intents'] === 'number' ? params.d['intents'] : 0;
    const rawShard = params.d['shard'];
    const shard: [number, number] = Array.isArray(rawShard) && rawShard.length === 2
      ? [Number(rawShard[0]), Number(rawShard[1])]
      : [0, 1];
    const session = new GatewaySession({ id: this.state.nextId(), intents, shard, socket: params.ws });
    this.sessions.set(session.id, session);
    this.identifies += 1;
    this.identifyIntents.push(intents);
    const joinedAt = this.state.isoNow();
    session.dispatch({
      t: 'READY',
      d: {
        v: 10,
        user: { ...userJson({ user: this.state.bot }), bot: true, verified: true, mfa_enabled: false, flags: 0 },
        guilds: this.state.guilds.map((guild) => ({ id: guild.id, unavailable: true })),
        session_id: session.id,
        resume_gateway_url: `${this.wsBase}${RESUME_PATH}`,
        shard,
        application: { id: this.state.applicationId, flags: 0 },
        private_channels: [],
        relationships: [],
        presences: [],
        guild_join_requests: [],
        geo_ordered_rtc_regions: [],
        _trace: ['["fake-discord",{}]'],
      },
    });
    for (const guild of this.state.guilds) {
      session.dispatch({ t: 'GUILD_CREATE', d: guildCreateJson({ guild, bot: this.state.bot, joinedAt }) });
    }
    return session;
  }

  private resume(params: { ws: WebSocket; path: string; d: Record<string, unknown> }): GatewaySession | undefined {
    const session = this.sessions.get(String(params.d['session_id']));
    const seq = typeof params.d['seq'] === 'number' ? params.d['seq'] : 0;
    const missed = session?.missedSince({ seq });
    if (!session || !missed) {
      params.ws.send(JSON.stringify({ op: 9, d: false, s: null, t: null }));
      return undefined;
    }
    const previous = session.socket;
    session.socket = params.ws;
    previous?.terminate();
    this.resumes += 1;
    this.resumePaths.push(params.path);
    for (const frame of missed) params.ws.send(JSON.stringify(frame));
    session.dispatch({ t: 'RESUMED', d: { _trace: ['["fake-discord",{}]'] } });
    return session;
  }
}

function rawText(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  if (data instanceof ArrayBuffer) return Buffer.from(data).toString('utf8');
  return data.toString('utf8');
}
