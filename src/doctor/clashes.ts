import type { AppConfig } from '../app/config-schema.js';
import { clashError, findClashes } from '../app/clashes.js';
import type { EnvSnapshot } from '../home/hermes-home.js';
import type { Profile } from '../home/profile.js';
import { line, type CheckLine } from '../core/check-line.js';

/** No other profile uses the same platform account or HTTP port (what `gateway run` would refuse). */
export async function clashLines(params: { profile: Profile; config: AppConfig; env: EnvSnapshot }): Promise<CheckLine[]> {
  const clashes = await findClashes(params);
  if (clashes.length === 0) return [line.ok('other profiles', 'no other profile uses the same accounts or HTTP port')];
  return clashes.map((clash) => {
    const error = clashError({ profile: params.profile, clash });
    return line.fail('other profiles', error.message, error.hint);
  });
}
