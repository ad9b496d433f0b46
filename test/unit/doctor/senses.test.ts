import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { systemClock } from '../../../src/core/clock.js';
import { speechCheck, webSearchCheck } from '../../../src/doctor/senses.js';
import { loadTempConfig } from '../config/temp-profile.js';

test('hermes doctor: a command stt names what is missing from PATH (its program, ffmpeg for {input_wav}); no stt, no line', async () => {
  const bin = mkdtempSync(path.join(os.tmpdir(), 'hermes-doctor-bin-'));
  try {
    const none = (await loadTempConfig('')).loaded.config;
    assert.deepEqual(speechCheck({ config: none }), []);
    const { config } = (await loadTempConfig('stt:\n  provider: command\n  command: pocketsphinx_continuous -infile {input_wav} -logfn /dev/null\n')).loaded;
    assert.deepEqual(speechCheck({ config, searchPath: bin }), [
      { status: 'fail', name: 'voice notes (stt)', detail: 'pocketsphinx_continuous and ffmpeg not found on PATH', fix: 'Install pocketsphinx_continuous and ffmpeg (ffmpeg: apt-get install ffmpeg), or change stt.command.' },
    ]);
    for (const name of ['pocketsphinx_continuous', 'ffmpeg']) {
      writeFileSync(path.join(bin, name), '#!/bin/sh\n');
      chmodSync(path.join(bin, name), 0o755);
    }
    assert.deepEqual(speechCheck({ config, searchPath: bin }), [{ status: 'ok', name: 'voice notes (stt)', detail: 'command pocketsphinx_continuous' }]);
  } finally {
    rmSync(bin, { recursive: true, force: true });
  }
});

test('hermes doctor: tts needs ffmpeg (voice notes are made OGG/Opus) and, for command, its program; openai names where it goes', async () => {
  const bin = mkdtempSync(path.join(os.tmpdir(), 'hermes-doctor-bin-'));
  try {
    const { config } = (await loadTempConfig('tts:\n  provider: command\n  command: espeak-ng -w {output} -f {input}\n')).loaded;
    assert.deepEqual(speechCheck({ config, searchPath: bin }), [
      { status: 'fail', name: 'voice replies (tts)', detail: 'espeak-ng and ffmpeg not found on PATH', fix: 'Install espeak-ng and ffmpeg (voice notes are made OGG/Opus with ffmpeg: apt-get install ffmpeg), or change tts.command.' },
    ]);
    writeFileSync(path.join(bin, 'ffmpeg'), '#!/bin/sh\n');
    chmodSync(path.join(bin, 'ffmpeg'), 0o755);
    const api = (await loadTempConfig('tts:\n  provider: openai\n  base_url: http://127.0.0.1:9/v1\n')).loaded.config;
    assert.deepEqual(speechCheck({ config: api, searchPath: bin }), [{ status: 'ok', name: 'voice replies (tts)', detail: 'openai at http://127.0.0.1:9/v1, model gpt-4o-mini-tts, voice alloy' }]);
    await assert.rejects(loadTempConfig('tts:\n  provider: command\n  command: espeak-ng -f {input}\n'), /\{output\}/);
  } finally {
    rmSync(bin, { recursive: true, force: true });
  }
});

test('hermes doctor: web search asks the configured SearXNG once and counts its results; a refusal is a failure with the fix', async () => {
  const server = http.createServer((req, res) => {
    if ((req.url ?? '').startsWith('/search?')) res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ results: [{ url: 'https://a.example', title: 'A', content: '' }, { url: 'https://b.example', title: 'B', content: '' }] }));
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    const ok = (await loadTempConfig(`web:\n  search_backend: searxng\n  search_url: ${base}\n`)).loaded.config;
    assert.deepEqual(await webSearchCheck({ config: ok, clock: systemClock }), [{ status: 'ok', name: 'web search (searxng)', detail: 'answered with 2 results' }]);
    const wrong = (await loadTempConfig(`web:\n  search_backend: searxng\n  search_url: ${base}/wrong/\n`)).loaded.config;
    const [failed] = await webSearchCheck({ config: wrong, clock: systemClock });
    assert.equal(failed?.status, 'fail');
    assert.equal(failed?.detail, 'searxng answered HTTP 404');
    assert.deepEqual(await webSearchCheck({ config: (await loadTempConfig('')).loaded.config, clock: systemClock }), []);
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
});
