import type { Command } from 'commander';
import type { GlobalOptions } from './context.js';
import type { CliIO } from './output.js';

/** Adds `hermes approvals list|revoke`. */
export function addApprovalsCommands(params: { program: Command; globals: () => GlobalOptions; io: CliIO; setExit: (code: number) => void }): void {
  const { globals, io, setExit } = params;
  const approvals = params.program.command('approvals').description('dangerous-command approval: the "always allow" rules the owner made');
  const load = async (): Promise<typeof import('./approvals-cmd.js')> => import('./approvals-cmd.js');
  approvals
    .command('list')
    .description('every always-allow rule: pattern id, what it matches, the command that made it, since when')
    .action(async () => setExit(await (await load()).approvalsCommand({ options: globals(), io, action: 'list' })));
  approvals
    .command('revoke')
    .description('remove a rule: commands matching that pattern ask the owner again')
    .argument('<pattern-id>', 'the id `hermes approvals list` shows')
    .action(async (patternId: string) => setExit(await (await load()).approvalsCommand({ options: globals(), io, action: 'revoke', patternId })));
}
