import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pty from 'node-pty';
import { nodeArgsFor } from './entry.js';
import { until } from './gateway-process.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** `hermes chat` running in a pseudo-terminal: what it printed, keys to type, how it ended. */
export interface PtyChat {
  /** Everything the terminal received so far (escape codes included). */
  output(): string;
  /** Types into the terminal (keys as the terminal sends them: '\r' Enter, '\x03' Ctrl-C, '\x04' Ctrl-D). */
  type(data: string): void;
  /** Waits until the output after `from` (an index into output()) matches `pattern`; returns the index after the match. */
  waitFor(params: { pattern: RegExp | string; from?: number; timeoutMs?: number }): Promise<number>;
  /** Resolves with the exit code once the process ended. */
  readonly exited: Promise<number>;
  /** Sends a signal to the chat process from outside (as `kill -INT PID` does). */
  signal(signal: NodeJS.Signals): void;
  /** Kills it (for cleanup after a failed test). */
  kill(): void;
}

/** Writes profile `me` under `home` pointing at the fake model at `baseURL`. */
export function writeChatProfile(params: { home: string; baseURL: string }): void {
  const dir = path.join(params.home, 'profiles', 'me');
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, '.env'), 'OPENAI_API_KEY=sk-pty-chat-key\n');
  writeFileSync(path.join(dir, 'config.yaml'), `model:\n  base_url: ${params.baseURL}\n  api_key: \${OPENAI_API_KEY}\n  max_retries: 0\n`);
}

/** Starts `hermes -p me chat <args>` (the real CLI through tsx) in an 100x30 pseudo-terminal, HERMES_HOME = `home`. */
export function startPtyChat(params: { home: string; args?: string[] }): PtyChat {
  let output = '';
  const child = pty.spawn(process.execPath, [...nodeArgsFor('src/cli/main.ts'), '-p', 'me', 'chat', ...(params.args ?? [])], {
    name: 'xterm-256color',
    cols: 100,
    rows: 30,
    cwd: root,
    env: { PATH: process.env['PATH'] ?? '', HOME: params.home, HERMES_HOME: params.home, TERM: 'xterm-256color' },
  });
  child.onData((data) => (output += data));
  const exited = new Promise<number>((resolve) => child.onExit(({ exitCode }) => resolve(exitCode)));
  return {
    output: () => output,
    type: (data) => child.write(data),
    waitFor: async ({ pattern, from = 0, timeoutMs = 8000 }) => {
      let end = -1;
      const what = typeof pattern === 'string' ? JSON.stringify(pattern) : String(pattern);
      await until({
        what,
        timeoutMs,
        output: () => JSON.stringify(output.slice(from)),
        check: () => {
          const rest = output.slice(from);
          if (typeof pattern === 'string') {
            const at = rest.indexOf(pattern);
            end = at < 0 ? -1 : from + at + pattern.length;
          } else {
            const match = pattern.exec(rest);
            end = match === null ? -1 : from + match.index + match[0].length;
          }
          return end >= 0;
        },
      });
      return end;
    },
    exited,
    signal: (signal) => process.kill(child.pid, signal),
    kill: () => {
      try {
        child.kill('SIGKILL');
      } catch {
        // already gone
      }
    },
  };
}
