import path from 'node:path';
import { gatewayCommandWords } from '../core/commands.js';
import { installSkill } from '../skills/install.js';
import { loadExistingProfile, type GlobalOptions } from './context.js';
import { println, type CliIO } from './output.js';

/**
 * `hermes skills install PATH [--category C] [--force]`: installs a local skill folder or `.tar.gz` (see
 * installSkill). Exit 0 installed, 1 refused (the reason on stderr), 66 no such profile.
 */
export async function skillsInstall(params: { options: GlobalOptions; io: CliIO; source: string; category?: string; force: boolean }): Promise<number> {
  const { io } = params;
  const loaded = await loadExistingProfile(params);
  const { profile, redactor } = loaded;
  const result = await installSkill({
    source: params.source,
    skillsDir: profile.skillsDir,
    cacheDir: profile.cacheDir,
    force: params.force,
    reserved: gatewayCommandWords,
    ...(params.category !== undefined ? { category: params.category } : {}),
  });
  if (!result.ok) {
    println({ stream: io.stderr, text: redactor.scrub(`error: not installed: ${result.reason}`) });
    return 1;
  }
  const rel = path.relative(profile.skillsDir, result.dir);
  const size = `${result.files} file${result.files === 1 ? '' : 's'}, ${result.bytes.toLocaleString('en-US')} bytes`;
  println({ stream: io.stdout, text: `installed skill ${result.name} in ${result.dir} (${size})${result.replaced.length > 0 ? '; it replaced the old one' : ''}` });
  println({ stream: io.stdout, text: `new sessions list it in their prompt; run it with /${result.name} (skills/${rel})` });
  return 0;
}
