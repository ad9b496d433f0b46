// A gateway process for crash tests: the real `gateway run` path plus the loopback test platform.
import { gatewayRun } from '../../src/cli/gateway-run.js';
import { LoopbackAdapter } from '../fakes/loopback/adapter.js';

const baseURL = process.env['LOOPBACK_URL'];
if (!baseURL) throw new Error('LOOPBACK_URL is not set');
const code = await gatewayRun({
  options: { profile: process.env['HERMES_TEST_PROFILE'] ?? 'crash' },
  io: { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env: { ...process.env }, isTTY: false },
  extraAdapters: [{ adapter: new LoopbackAdapter({ baseURL }), allow: 'all' }],
});
process.exit(code);
