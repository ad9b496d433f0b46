// `npm run bench`: gateway throughput and latency next to a bare fastify+SQLite baseline, in one run.
import { runBaseline } from './baseline.js';
import { runGateway } from './gateway.js';
import { row } from './stats.js';

const messages = Number.parseInt(process.env['BENCH_MESSAGES'] ?? '1000', 10);
const chats = 50;

// Warm-up (JIT, SQLite page cache) so both measured runs start equal.
await runBaseline({ messages: 200, concurrency: chats });
await runGateway({ messages: 100, chats: 10 });

const baseline = await runBaseline({ messages, concurrency: chats });
const gateway = await runGateway({ messages, chats });
console.log(`node ${process.version}, ${messages} messages over ${chats} concurrent chats/clients`);
console.log(row({ run: baseline }));
console.log(row({ run: gateway }));
const rate = (r: { messages: number; seconds: number }): number => r.messages / r.seconds;
console.log(`gateway/baseline throughput ratio: ${(rate(gateway) / rate(baseline)).toFixed(2)}; RSS after gateway run: ${gateway.rssMb.toFixed(0)} MB`);
