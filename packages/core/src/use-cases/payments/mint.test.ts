import { describe, expect, it } from 'vitest';
import type { PublicKey } from '../../domain/public-key.js';
import { mint } from './mint.js';
import { AS_DEFAULT, setup } from './test-support.js';

describe('mint', () => {
  it('mints to the owner with the metadata asked for', async () => {
    const t = await setup();
    const out = (
      await mint(t.deps, { name: 'One', symbol: 'ONE', uri: 'ipfs://cid', owner: t.sender }, AS_DEFAULT)
    )._unsafeUnwrap();
    const nft = (await t.chain.getNft(out.mint as PublicKey))._unsafeUnwrap();
    expect(nft).toMatchObject({ name: 'One', symbol: 'ONE', uri: 'ipfs://cid', supply: 1n, decimals: 0 });
  });

  it('takes https:, ipfs: and ar: metadata URIs and refuses every other scheme, which wallets would fetch or run', async () => {
    const t = await setup();
    for (const uri of [
      'https://example.org/1.json',
      'ipfs://bafy/1.json',
      'ar://tx-id',
      'HTTPS://EXAMPLE.ORG/x',
    ]) {
      expect(
        (await mint(t.deps, { name: 'Ok', symbol: 'OK', uri }, AS_DEFAULT))._unsafeUnwrap().mint,
        uri,
      ).toBeDefined();
    }
    for (const uri of [
      'javascript:alert(1)',
      'JavaScript:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      'file:///etc/passwd',
      'http://example.org/1.json',
      'vbscript:msgbox',
    ]) {
      const refused = (await mint(t.deps, { name: 'No', symbol: 'NO', uri }, AS_DEFAULT))._unsafeUnwrapErr();
      expect(refused, uri).toMatchObject({
        code: 'INVALID_INPUT',
        message: 'uri must use one of https: ipfs: ar:',
      });
    }
  });
});
