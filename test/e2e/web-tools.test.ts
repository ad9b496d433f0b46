import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { systemClock } from '../../src/core/clock.js';
import { ToolRegistry } from '../../src/tools/registry.js';
import { builtinTools } from '../../src/tools/builtin/index.js';
import { webCapability, type WebSettings } from '../../src/web/capability.js';
import { makeSandbox, type Sandbox } from '../unit/tools/support.js';
import { startHarness } from '../helpers/harness.js';

const article = readFileSync(path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'web', 'article.html'));

/** The profile's one secret in these tests. */
const SECRET = 'sk-web-test-5f3c9a1e77';
const scrub = (text: string): string => text.replaceAll(SECRET, '***');

/** What the local site served, by path. */
const served: string[] = [];
let bigBytesSent = 0;

/** A local site: a realistic article, a 20 MB page, redirects, and a SearXNG-style JSON search API. */
function site(req: IncomingMessage, res: ServerResponse): void {
  const url = new URL(req.url ?? '/', 'http://site');
  served.push(url.pathname);
  if (url.pathname === '/article') {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(article);
  } else if (url.pathname === '/big') {
    res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
    const line = `${'All work and no play makes Jack a dull boy. '.repeat(20)}\n`;
    const write = (): void => {
      while (bigBytesSent < 20 * 1024 * 1024) {
        bigBytesSent += line.length;
        if (!res.write(line)) {
          res.once('drain', write);
          return;
        }
      }
      res.end();
    };
    res.on('error', () => undefined);
    write();
  } else if (url.pathname === '/to-private') {
    res.writeHead(302, { location: 'http://10.20.30.40/admin' }).end();
  } else if (url.pathname === '/to-loopback-name') {
    res.writeHead(301, { location: `http://localhost:${(req.socket.localPort ?? 0).toString()}/article` }).end();
  } else if (url.pathname === '/to-article') {
    res.writeHead(302, { location: '/article' }).end();
  } else if (url.pathname === '/search' && url.searchParams.get('format') === 'json') {
    const q = url.searchParams.get('q') ?? '';
    res.writeHead(200, { 'content-type': 'application/json' }).end(
      JSON.stringify({
        query: q,
        results: [
          { url: 'https://example.org/seals', title: 'Harbour <b>seals</b> in the Wadden Sea', content: `About ${q}: counts &amp; trends`, engine: 'duckduckgo' },
          { url: 'https://example.net/grey', title: 'Grey seals', content: 'Winter births', engine: 'bing' },
        ],
      }),
    );
  } else {
    res.writeHead(404).end('not found');
  }
}

describe('web_extract and web_search against a local site', () => {
  const server = http.createServer(site);
  let base = '';
  let sandbox: Sandbox;
  let registry: ToolRegistry;
  const settings: { current: WebSettings } = {
    current: { extractCharLimit: 15_000, maxBytes: 5 * 1024 * 1024, timeoutMs: 10_000, cacheTtlMs: 60_000, allowPrivate: false },
  };
  /** Runs a web tool; the site on 127.0.0.1 counts as public here, every other private address does not. */
  const call = async (name: string, args: object, opts: { strict?: boolean } = {}) => {
    const web = webCapability({ settings: () => settings.current, clock: systemClock, scrub, ...(opts.strict === true ? {} : { isPublic: (address: string) => address === '127.0.0.1' }) });
    return registry.execute({ call: { id: `c${served.length}`, name, arguments: JSON.stringify(args) }, ctx: { ...sandbox.ctx, web } });
  };

  before(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    sandbox = makeSandbox();
    registry = new ToolRegistry({ tools: builtinTools({ web_search: true }) });
  });
  after(async () => {
    sandbox.cleanup();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  test('an article page comes back as its text without navigation, ads, cookie banner, comments or footer, fenced with its title', async () => {
    const result = await call('web_extract', { urls: [`${base}/to-article`] });
    assert.equal(result.isError, false, result.content);
    const text = result.content;
    assert.match(text, new RegExp(`^<web_page url="${base}/article" title="Harbour seals return to the Wadden Sea">\\n`));
    assert.match(text, /Aerial observers counted 28,400 seals on the sandbanks between Den Helder and Esbjerg/);
    assert.match(text, /## Why the numbers rose/);
    assert.match(text, /- Grey seals counted: 11,900/);
    assert.match(text, /call the local seal rescue centre instead of touching the animal\.\n/);
    for (const clutter of ['MEGA SALE', 'Fjord 5 e-bike', 'Accept all', 'Subscribe for', 'Related stories', 'crypto channel', '312 comments', 'All rights reserved', 'Privacy', 'dataLayer']) {
      assert.ok(!text.includes(clutter), `${clutter} was left in:\n${text}`);
    }
    assert.match(text, /<\/web_page>$/);
  });

  test('private, loopback and link-local addresses are refused, as written, by name and after a redirect; nothing is requested there', async () => {
    const strict = await call('web_extract', { urls: [`${base}/article`, 'http://2130706433/'] }, { strict: true });
    const [own, numeric] = strict.content.split('\n\n');
    assert.match(own ?? '', /\[Not read: 127\.0\.0\.1 is a private, loopback or link-local address; pages there are not fetched \(web\.allow_private\)\]/);
    assert.match(numeric ?? '', /\[Not read: 127\.0\.0\.1 is a private/);
    const before = served.length;
    const cases: [string, RegExp][] = [
      ['http://10.1.2.3/secret', /10\.1\.2\.3 is a private, loopback or link-local address/],
      ['http://169.254.169.254/latest/meta-data/', /169\.254\.169\.254 is a private/],
      ['http://[::1]:80/', /::1 is a private/],
      ['http://0x0a.0.0.1/', /10\.0\.0\.1 is a private/],
      [`http://localhost:${new URL(base).port}/article`, /localhost \(127\.0\.0\.1\) is a private/],
      [`${base}/to-private`, /10\.20\.30\.40 is a private/],
      [`${base}/to-loopback-name`, /localhost \(127\.0\.0\.1\) is a private/],
      ['file:///etc/passwd', /only http and https pages are fetched, not file:/],
    ];
    const result = await call('web_extract', { urls: cases.slice(0, 5).map(([url]) => url) });
    const second = await call('web_extract', { urls: cases.slice(5).map(([url]) => url) });
    const blocks = [...result.content.split('\n\n'), ...second.content.split('\n\n')];
    cases.forEach(([url, expected], i) => assert.match(blocks[i] ?? '', expected, `${url}: ${blocks[i] ?? ''}`));
    assert.deepEqual(served.slice(before), ['/to-private', '/to-loopback-name'], 'only the redirecting pages of the site itself were asked');
  });

  test("an address or query holding one of the profile's secrets is refused before anything is sent", async () => {
    const before = served.length;
    const plain = await call('web_extract', { urls: [`${base}/article?k=${SECRET}`, `${base}/article?k=${encodeURIComponent(SECRET).replace('-', '%2D')}`] });
    const [first, second] = plain.content.split('\n\n');
    for (const block of [first, second]) assert.match(block ?? '', /\[Not read: the address holds one of the profile's secrets; it was not sent\]/);
    settings.current = { ...settings.current, search: { kind: 'searxng', url: `${base}/` } };
    const search = await call('web_search', { query: `what is ${SECRET}` });
    assert.equal(search.isError, true);
    assert.match(search.content, /the query holds one of the profile's secrets; it was not sent/);
    settings.current = { ...settings.current, search: undefined };
    assert.equal(served.length, before, 'nothing reached the site');
  });

  test('a 20 MB page is cut at web.max_bytes and its download stops there', async () => {
    settings.current = { ...settings.current, maxBytes: 1024 * 1024 };
    try {
      const result = await call('web_extract', { url: `${base}/big` });
      assert.equal(result.isError, false);
      assert.match(result.content, /\[The page was longer than web\.max_bytes; only its start was downloaded\.\]\n<\/web_page>$/);
      const saved = /The whole text is in (web\/[^ ]+\.md)/.exec(result.content)?.[1] ?? '';
      const full = readFileSync(path.join(sandbox.workspace, saved), 'utf8');
      assert.ok(full.length <= 1024 * 1024 + 200 && full.length > 1000 * 1000, `${full.length} characters kept`);
      assert.ok(bigBytesSent < 20 * 1024 * 1024, `the server wrote all ${bigBytesSent} bytes`);
    } finally {
      settings.current = { ...settings.current, maxBytes: 5 * 1024 * 1024, extractCharLimit: 15_000 };
    }
  });

  test('a page over extract_char_limit comes back as its start and end; the whole text is saved in the workspace for read_file', async () => {
    settings.current = { ...settings.current, extractCharLimit: 1500, cacheTtlMs: 0 };
    try {
      const result = await call('web_extract', { urls: [`${base}/article`] });
      const saved = /The whole text is in (web\/127\.0\.0\.1-[0-9a-f]{10}\.md) \((\d+) lines\): read_file with offset to read the middle\./.exec(result.content);
      assert.ok(saved, result.content);
      assert.match(result.content, /^<web_page[^\n]*>\nSeals resting on a sandbank/);
      assert.match(result.content, /touching the animal\.\n/);
      assert.match(result.content, /<\/web_page>$/);
      assert.ok(!result.content.includes('Cleaner water played a part'), 'the middle is left out');
      const file = path.join(sandbox.workspace, saved[1] ?? '');
      assert.ok(existsSync(file));
      const full = readFileSync(file, 'utf8');
      assert.match(full, /^# Harbour seals return to the Wadden Sea\n\nSource: http:\/\/127\.0\.0\.1:\d+\/article\n\n/);
      assert.match(full, /Cleaner water played a part as well\./);
      const read = await sandbox.call('read_file', { path: saved[1] ?? '', offset: 10, limit: 5 });
      assert.equal(read.isError, false, read.content);
    } finally {
      settings.current = { ...settings.current, extractCharLimit: 15_000, cacheTtlMs: 60_000 };
    }
  });

  test('a page read again within web.cache_ttl is answered from the cache', async () => {
    const web = webCapability({ settings: () => settings.current, clock: systemClock, scrub, isPublic: (address) => address === '127.0.0.1' });
    const ctx = { ...sandbox.ctx, web };
    const asked = (): number => served.filter((p) => p === '/article').length;
    await registry.execute({ call: { id: 'x1', name: 'web_extract', arguments: JSON.stringify({ url: `${base}/article` }) }, ctx });
    const once = asked();
    await registry.execute({ call: { id: 'x2', name: 'web_extract', arguments: JSON.stringify({ url: `${base}/article` }) }, ctx });
    assert.equal(asked(), once);
  });

  test('web_search asks a SearXNG instance on this host for JSON and lists titles, URLs and snippets, fenced', async () => {
    settings.current = { ...settings.current, search: { kind: 'searxng', url: `${base}/` } };
    const result = await call('web_search', { query: 'wadden seals', limit: 1 });
    assert.equal(result.isError, false, result.content);
    assert.equal(result.content, '<web_search query="wadden seals">\n1. Harbour seals in the Wadden Sea\n   https://example.org/seals\n   About wadden seals: counts & trends\n</web_search>');
    settings.current = { ...settings.current, search: { kind: 'searxng', url: `${base}/nothing-here/` } };
    const refused = await call('web_search', { query: 'x' });
    assert.equal(refused.isError, true);
    assert.match(refused.content, /web_search failed: searxng answered HTTP 404/);
  });
});

test('a turn reads a page through the gateway: web_extract is offered, its page reaches the model fenced; web_search is not offered without a backend', async () => {
  const server = http.createServer((req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(article));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/seals`;
  const h = await startHarness({ config: { web: { allow_private: true }, toolsets: ['all'] } });
  try {
    h.fake.enqueue({ toolCalls: [{ name: 'web_extract', arguments: { urls: [url] } }] }, { text: 'There are 28,400 harbour seals.' });
    await h.adapter.inject({ text: `how many seals? ${url}` });
    await h.runner.waitIdle();
    const tools = (h.fake.requests[0]?.body.tools ?? []).map((t) => (t['function'] as { name: string }).name);
    assert.ok(tools.includes('web_extract') && !tools.includes('web_search'), tools.join(', '));
    const toolMessage = (h.fake.requests[1]?.body.messages ?? []).find((m) => m.role === 'tool');
    assert.match(String(toolMessage?.content ?? ''), /<web_page url="http:\/\/127\.0\.0\.1:\d+\/seals" title="Harbour seals return to the Wadden Sea">\n[\s\S]*28,400 seals/);
  } finally {
    await h.stop();
    await new Promise((resolve) => server.close(resolve));
  }
});
