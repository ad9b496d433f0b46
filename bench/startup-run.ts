// `node --import tsx bench/startup-run.ts [platform ...]`: the start-up figures alone (spawn → ready, idle RSS) of the
// built gateway, for every platform or those named; `npm run build` first. BENCH_STARTUPS sets the number of starts.
import { startupLines } from './startup-report.js';
import { runStartup } from './startup.js';

const platformNames = ['telegram', 'slack', 'discord', 'email', 'sms'] as const;
type PlatformName = (typeof platformNames)[number];

const names = process.argv.slice(2);
const unknown = names.filter((name) => !platformNames.some((known) => known === name));
if (unknown.length > 0) throw new Error(`unknown platform ${unknown.join(', ')}: one of ${platformNames.join(', ')}`);
const only = platformNames.filter((name): name is PlatformName => names.includes(name));
const runs = Number.parseInt(process.env['BENCH_STARTUPS'] ?? '3', 10);
const figures = await runStartup({ runs, idleMs: 5000, ...(only.length > 0 ? { only } : {}) });
for (const line of startupLines({ figures })) console.log(line);
