import { pino, type Logger } from 'pino';
import type { AdapterReport, ChoiceAnswer, ChoiceEvent, MessageEvent, OutboundChoice, PlatformAdapter, Sender } from '../../src/core/adapter.js';
import { createHttpServer } from '../../src/gateway/http/server.js';
import { systemClock } from '../../src/core/clock.js';

/** The four choices of an approval question, as the adapter tests send them. */
export const choices: readonly OutboundChoice[] = [
  { id: 'appr:k1:once', label: 'Allow once' },
  { id: 'appr:k1:session', label: 'Allow for this session' },
  { id: 'appr:k1:always', label: 'Always allow' },
  { id: 'appr:k1:deny', label: 'Deny' },
];

/** A log that keeps its lines (JSON objects) for assertions. */
export function recordingLogger(): { logger: Logger; lines: Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = [];
  const logger = pino({ level: 'debug' }, { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) });
  return { logger, lines };
}

/** An adapter started on its own, its `choose` recording every press and answering with the scripted answer. */
export interface RunningAdapter {
  /** Every press `choose` got, in order. */
  readonly presses: ChoiceEvent[];
  /** Every message the adapter emitted (a press must never add one). */
  readonly emitted: MessageEvent[];
  /** What `choose` answers next (change it between presses). */
  answer: ChoiceAnswer;
  /** While set, `choose` waits for it before answering (a slow gateway). */
  gate: Promise<void> | undefined;
  /** Resolves once `choose` has seen `count` presses (real-time watchdog). */
  waitPresses(params: { count: number; timeoutMs?: number }): Promise<void>;
  /** Resolves once the adapter reported itself connected. */
  connected(): Promise<void>;
  /** Stops the adapter and waits for `start` to end. */
  stop(): Promise<void>;
}

/** Starts an adapter with a recording `choose`; `mayTalk` says which senders are allowed (default: everyone). */
export function runAdapter(params: { adapter: PlatformAdapter; answer?: ChoiceAnswer; mayTalk?: (sender: Sender) => boolean }): RunningAdapter {
  const controller = new AbortController();
  const storage = new Map<string, string>();
  const waiters: (() => void)[] = [];
  let isConnected = false;
  const notify = (): void => {
    for (const wake of waiters.splice(0)) wake();
  };
  const until = (predicate: () => boolean, what: string, timeoutMs = 5000): Promise<void> =>
    new Promise<void>((resolve, reject) => {
      const started = Date.now();
      const check = (): void => {
        if (predicate()) return resolve();
        if (Date.now() - started > timeoutMs) return reject(new Error(`runAdapter: ${what} not within ${timeoutMs} ms`));
        waiters.push(check);
        setTimeout(notify, 25);
      };
      check();
    });
  const running: RunningAdapter = {
    presses: [],
    emitted: [],
    answer: params.answer ?? {},
    gate: undefined,
    waitPresses: ({ count, timeoutMs }) => until(() => running.presses.length >= count, `${count} presses`, timeoutMs),
    connected: () => until(() => isConnected, 'connected'),
    stop: async () => {
      controller.abort();
      await started.catch(() => undefined);
    },
  };
  const mayTalk = params.mayTalk ?? (() => true);
  const started = params.adapter.start({
    signal: controller.signal,
    emit: async (event) => {
      running.emitted.push(event);
      notify();
    },
    report: (report: AdapterReport) => {
      isConnected = report.state === 'connected';
      notify();
    },
    storage: { get: ({ name }) => storage.get(name), set: ({ name, value }) => void storage.set(name, value) },
    mayTalk: ({ sender }) => mayTalk(sender),
    choose: async (event) => {
      running.presses.push(event);
      notify();
      if (running.gate !== undefined) await running.gate;
      return running.answer;
    },
  });
  return running;
}

/** The gateway's HTTP server with one adapter's webhook routes mounted, listening on loopback. */
export async function serveRoutes(params: { adapter: PlatformAdapter; logger?: Logger }): Promise<{ base: string; close: () => Promise<void> }> {
  const logger = params.logger ?? pino({ level: 'silent' });
  const http = createHttpServer({
    host: '127.0.0.1',
    port: 0,
    bodyLimitBytes: 1_000_000,
    logger,
    clock: systemClock,
    health: () => ({ status: 'ok', profile: 'test', uptimeSeconds: 0, adapters: [] }),
  });
  await http.webhooks.mount({ name: params.adapter.name, register: (routes) => params.adapter.registerRoutes?.(routes) });
  const address = await http.listen();
  return { base: `http://127.0.0.1:${address.port}`, close: () => http.close() };
}
