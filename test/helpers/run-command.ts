import { spawn } from 'node:child_process';

/** What a command printed and how it ended. */
export interface CommandResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs a command to its end (its environment `env`, else this process's); resolves with its exit code and output. */
export async function runCommand(params: { command: string; args: readonly string[]; cwd: string; env?: NodeJS.ProcessEnv }): Promise<CommandResult> {
  const child = spawn(params.command, [...params.args], { cwd: params.cwd, stdio: ['ignore', 'pipe', 'pipe'], ...(params.env ? { env: params.env } : {}) });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (c) => resolve(c));
  });
  return { code, stdout, stderr };
}
