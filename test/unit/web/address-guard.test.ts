import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BlockedAddressError, isPublicAddress, publicOnlyLookup } from '../../../src/web/address-guard.js';

test('private, loopback, link-local and reserved addresses are not public; IPv4 inside IPv6 is checked as IPv4', () => {
  const refused = ['127.0.0.1', '127.8.9.10', '10.0.0.5', '172.16.0.1', '172.31.255.255', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '224.0.0.1', '255.255.255.255', '::1', '::', 'fe80::1', 'fd00::1', 'fc12:3456::1', '::ffff:127.0.0.1', '::ffff:a00:1', '[::1]', 'ff02::1', 'not-an-address'];
  for (const address of refused) assert.equal(isPublicAddress({ address }), false, address);
  const allowed = ['93.184.216.34', '8.8.8.8', '172.32.0.1', '100.128.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8'];
  for (const address of allowed) assert.equal(isPublicAddress({ address }), true, address);
});

test('the lookup a page fetch connects with refuses a name that resolves only to private addresses', async () => {
  const lookup = publicOnlyLookup();
  const error = await new Promise<Error | null>((resolve) => {
    lookup('localhost', {}, (err) => resolve(err));
  });
  assert.ok(error instanceof BlockedAddressError, String(error));
  assert.match(error.message, /^localhost \((127\.0\.0\.1|::1)\) is a private, loopback or link-local address/);
});
