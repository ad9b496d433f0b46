import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { MediaLinks, signMediaPath, verifyMediaPath } from '../../../adapters/sms/media-links.js';
import { FakeClock } from '../../helpers/fake-clock.js';

const key = Buffer.alloc(32, 7);

/** The local path and query values of a public link. */
function parts(link: string): { path: string; expires: string | undefined; sig: string | undefined } {
  const url = new URL(link);
  return { path: url.pathname.replace(/^\/sms\/twilio/, '/hooks/sms'), expires: url.searchParams.get('expires') ?? undefined, sig: url.searchParams.get('sig') ?? undefined };
}

function links(clock: FakeClock, maxLinks?: number): MediaLinks {
  return new MediaLinks({ clock, ttlMs: 3_600_000, publicBase: 'https://bot.example.com/sms/twilio/media', localBase: '/hooks/sms/media', key, ...(maxLinks ? { maxLinks } : {}) });
}

describe('media link signatures', () => {
  test('cover the path and the expiry', () => {
    const signature = signMediaPath({ key, path: '/m/a/x.png', expiresAt: 1000 });
    assert.equal(verifyMediaPath({ key, path: '/m/a/x.png', expiresAt: 1000, signature }), true);
    assert.equal(verifyMediaPath({ key, path: '/m/b/x.png', expiresAt: 1000, signature }), false);
    assert.equal(verifyMediaPath({ key, path: '/m/a/x.png', expiresAt: 2000, signature }), false);
    assert.equal(verifyMediaPath({ key: Buffer.alloc(32, 8), path: '/m/a/x.png', expiresAt: 1000, signature }), false);
    assert.equal(verifyMediaPath({ key, path: '/m/a/x.png', expiresAt: 1000, signature: 'zz' }), false);
  });
});

describe('MediaLinks', () => {
  test('a link is public, names no local path, and resolves to the file until it expires', async () => {
    const clock = new FakeClock();
    const media = links(clock);
    const link = media.link({ file: '/home/me/.hermes/workspace/chart.png', contentType: 'image/png' });
    assert.match(link, /^https:\/\/bot\.example\.com\/sms\/twilio\/media\/[0-9a-f]{32}\/chart\.png\?expires=\d+&sig=[0-9a-f]{64}$/);
    assert.ok(!link.includes('workspace'));
    assert.deepEqual(media.check(parts(link)), { kind: 'ok', file: '/home/me/.hermes/workspace/chart.png', contentType: 'image/png' });
    await clock.advance(3_600_000);
    assert.deepEqual(media.check(parts(link)), { kind: 'expired' });
  });

  test('a forged, altered or unsigned link is forbidden', () => {
    const clock = new FakeClock();
    const media = links(clock);
    const good = parts(media.link({ file: '/w/a.png', contentType: 'image/png' }));
    assert.deepEqual(media.check({ ...good, sig: 'a'.repeat(64) }), { kind: 'forbidden' });
    assert.deepEqual(media.check({ ...good, expires: String(Number(good.expires) + 3_600_000) }), { kind: 'forbidden' });
    assert.deepEqual(media.check({ ...good, path: good.path.replace('a.png', 'b.png') }), { kind: 'forbidden' });
    assert.deepEqual(media.check({ ...good, sig: undefined }), { kind: 'forbidden' });
    assert.deepEqual(media.check({ ...good, path: '/elsewhere/x/a.png' }), { kind: 'forbidden' });
    // Another process (another key) cannot mint links for this one.
    const other = new MediaLinks({ clock, ttlMs: 3_600_000, publicBase: 'https://bot.example.com/sms/twilio/media', localBase: '/hooks/sms/media' });
    assert.deepEqual(other.check(good), { kind: 'forbidden' });
  });

  test('links are bounded: the oldest are forgotten (then answered as expired)', () => {
    const clock = new FakeClock();
    const media = links(clock, 3);
    const all = [1, 2, 3, 4].map((n) => parts(media.link({ file: `/w/${n}.png`, contentType: 'image/png' })));
    assert.deepEqual(media.check(all[0] ?? { path: '', expires: undefined, sig: undefined }), { kind: 'expired' });
    assert.equal(media.check(all[3] ?? { path: '', expires: undefined, sig: undefined }).kind, 'ok');
  });
});
