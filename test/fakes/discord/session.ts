import type { WebSocket } from 'ws';

/** Close codes after which Discord lets the client resume (its docs' "reconnect: true"). */
export const RESUMABLE_CLOSE_CODES: ReadonlySet<number> = new Set([4000, 4001, 4002, 4003, 4005, 4007, 4008, 4009]);

/** How many sent dispatches a session keeps for replay on RESUME. */
const REPLAY_LIMIT = 1_000;

/** A dispatch as sent on the wire. */
export interface DispatchFrame {
  /** Always 0. */
  op: 0;
  /** Sequence number. */
  s: number;
  /** Event name. */
  t: string;
  /** Event data. */
  d: unknown;
}

/** One gateway session: its sequence, its replay buffer and the socket it is attached to, if any. */
export class GatewaySession {
  /** session_id. */
  readonly id: string;
  /** Intents from IDENTIFY. */
  readonly intents: number;
  /** [shard_id, num_shards] from IDENTIFY. */
  readonly shard: [number, number];
  /** The socket currently attached, or undefined while disconnected. */
  socket: WebSocket | undefined;
  private seq = 0;
  private readonly sent: DispatchFrame[] = [];

  constructor(params: { id: string; intents: number; shard: [number, number]; socket: WebSocket }) {
    this.id = params.id;
    this.intents = params.intents;
    this.shard = params.shard;
    this.socket = params.socket;
  }

  /** True while a socket is attached and open. */
  get connected(): boolean {
    return this.socket !== undefined && this.socket.readyState === this.socket.OPEN;
  }

  /** The last sequence number handed out. */
  get sequence(): number {
    return this.seq;
  }

  /** Numbers, buffers and (when connected) sends a dispatch. */
  dispatch(params: { t: string; d: unknown }): DispatchFrame {
    this.seq += 1;
    const frame: DispatchFrame = { op: 0, s: this.seq, t: params.t, d: params.d };
    this.sent.push(frame);
    if (this.sent.length > REPLAY_LIMIT) this.sent.shift();
    if (this.connected) this.socket?.send(JSON.stringify(frame));
    return frame;
  }

  /** Dispatches after `seq` still in the buffer, or undefined when some were already dropped (cannot resume). */
  missedSince(params: { seq: number }): DispatchFrame[] | undefined {
    if (params.seq > this.seq) return undefined;
    const first = this.sent[0];
    if (first && params.seq < first.s - 1) return undefined;
    return this.sent.filter((frame) => frame.s > params.seq);
  }
}
