import { createHash } from 'node:crypto';
import path from 'node:path';
import type { Logger } from 'pino';
import { Checkpoints } from '../checkpoints/checkpoints.js';
import type { GatewayConfig } from '../config/schema.js';
import type { Clock } from '../core/clock.js';
import type { Profile } from '../home/profile.js';
import { findOnPath } from '../util/on-path.js';

/**
 * The workspace's checkpoints from config `checkpoints`: undefined when they are off or git is not on PATH. Each
 * workspace has its own folder of repositories under the profile's checkpoints/ (named by a hash of its path).
 */
export function checkpointsFrom(params: { profile: Profile; config: GatewayConfig; workspace: string; clock: Clock; logger: Logger }): Checkpoints | undefined {
  const { config } = params;
  if (!config.checkpoints.enabled || findOnPath({ name: 'git', searchPath: process.env['PATH'] ?? '/usr/bin:/bin' }) === undefined) return undefined;
  const name = createHash('sha256').update(path.resolve(params.workspace)).digest('hex').slice(0, 12);
  return new Checkpoints({
    dir: path.join(params.profile.dir, 'checkpoints', name),
    workspace: params.workspace,
    settings: { maxCount: config.checkpoints.max_count, maxAgeMs: config.checkpoints.max_age, maxBytes: config.checkpoints.max_size },
    clock: params.clock,
    logger: params.logger.child({ component: 'checkpoints' }),
  });
}
