import os from 'node:os';
import { TerminalAdapter } from '../../adapters/terminal/adapter.js';
import { TtyTerminalAdapter } from '../../adapters/terminal/tty-adapter.js';
import { buildGateway } from '../app/bootstrap.js';
import { UserFacingError } from '../core/errors.js';
import { modelLabel, modelProblem } from '../gateway/ops/model-check.js';
import { systemClock } from '../core/clock.js';
import { chatSessionKey, openChatSession, type ChatSessionChoice } from './chat-session.js';
import { loadProfile, mcpServersRereader, openLog, type GlobalOptions } from './context.js';
import { println, type CliIO } from './output.js';

/** True when the user types into a terminal (not a pipe or file). */
function stdinIsTTY(io: CliIO): boolean {
  return 'isTTY' in io.stdin && io.stdin.isTTY === true;
}

/**
 * `hermes chat`: talk to the agent from the terminal, through the same runner, mailbox, agent and store as
 * every platform. Slash commands work; Ctrl-D ends it. On a terminal (stdin and stdout) keys are read in raw mode
 * (TtyTerminalAdapter: Ctrl-C stops an answer, pastes are one message, Markdown rendered); piped input is a script.
 * `session`: which conversation it starts in (default: the current one, said on start; --new; --resume [ID]).
 */
export async function chat(params: { options: GlobalOptions; io: CliIO; session?: ChatSessionChoice }): Promise<number> {
  const { io } = params;
  let loaded = await loadProfile(params);
  const problem = modelProblem({ config: loaded.config, configPath: loaded.profile.configPath, envPath: loaded.profile.envPath });
  // On a terminal, offer `hermes setup model` (then load the profile again); otherwise say how to set one up.
  if (problem !== null && (await (await import('./setup/offer.js')).offerModelSetup({ ...params, problem }))) loaded = await loadProfile(params);
  else if (problem !== null) throw new UserFacingError({ message: problem.split('\n')[0] ?? problem, hint: `${problem.split('\n').slice(1).join('\n')}\nOr run \`hermes setup\`: it asks for the endpoint and key and tests them.`, exitCode: 78 });
  const { profile, config } = loaded;
  const log = openLog({ loaded, tty: false });
  let ended: () => void = () => undefined;
  const done = new Promise<void>((resolve) => {
    ended = resolve;
  });
  const interactive = stdinIsTTY(io) && io.isTTY;
  const terminal = interactive
    ? new TtyTerminalAdapter({ input: io.stdin, output: io.stdout, cursor: config.stream.cursor, clock: systemClock, user: os.userInfo().username, onEnd: () => ended() })
    : new TerminalAdapter({
        input: io.stdin,
        output: io.stdout,
        cursor: config.stream.cursor,
        clock: systemClock,
        user: os.userInfo().username,
        onEnd: () => ended(),
        // Tool activity is dimmed on a terminal; a pipe or file gets it as plain lines (no escape codes).
        dim: io.isTTY,
      });
  try {
    const { runner, store } = buildGateway({
      profile,
      config,
      clock: systemClock,
      logger: log.logger,
      // Typed lines follow the configured busy policy; piped input is a script, so its lines queue.
      adapters: [{ adapter: terminal, allow: 'all', localOwner: true, editIntervalMs: 250, ...(stdinIsTTY(io) ? {} : { busyPolicy: 'queue' as const }) }],
      withHttp: false,
      scrub: (text) => loaded.redactor.scrub(text),
      secrets: loaded.redactor,
      readMcpServers: mcpServersRereader({ loaded, env: io.env }),
    });
    const opened = openChatSession({ store, key: chatSessionKey({ profile: profile.name }), choice: params.session ?? { kind: 'continue' } });
    if (!opened.ok) {
      await runner.stop();
      throw new UserFacingError({ message: opened.message, hint: `hermes -p ${profile.name} sessions list shows the stored conversations.`, exitCode: 66 });
    }
    const keys = interactive ? 'Ctrl-C stops an answer, Ctrl-D leaves' : 'Ctrl-D to leave';
    const banner = `hermes chat — profile "${profile.name}", ${modelLabel({ config })}. /help for commands, ${keys}.`;
    println({ stream: io.stdout, text: loaded.redactor.scrub(banner) });
    println({ stream: io.stdout, text: loaded.redactor.scrub(opened.line) });
    await runner.start();
    // SIGINT from outside (kill -INT; Ctrl-C in the shell that pipes into the chat; on a terminal Ctrl-C is a key): the
    // running answer is stopped (as /stop: piped lines waiting behind it are dropped), then the chat ends.
    const onSigint = (): void => {
      if (terminal instanceof TtyTerminalAdapter) {
        terminal.stopAnswer();
        ended();
        return;
      }
      void terminal.interrupt().finally(() => ended());
    };
    process.once('SIGINT', onSigint);
    await done;
    process.off('SIGINT', onSigint);
    await runner.waitIdle();
    await runner.stop();
    println({ stream: io.stdout, text: '' });
    return 0;
  } finally {
    await log.close();
  }
}
