import { Keypair, PublicKey as Web3PublicKey } from '@solana/web3.js';
import { describe, expect, it } from 'vitest';
import { keyName, web3Key } from '../../src/chain/shared/keys.js';

describe('web3Key and keyName', () => {
  it('answers the key a name decodes to, one object per name, and names any key as web3.js does', () => {
    const names = Array.from({ length: 50 }, () => Keypair.generate().publicKey.toBase58());
    for (const name of names) {
      const key = web3Key(name);
      expect(key.equals(new Web3PublicKey(name))).toBe(true);
      expect(web3Key(name)).toBe(key);
      expect(keyName(key)).toBe(name);
    }
    // A key made elsewhere is named by web3.js once, then from memory.
    const other = Keypair.generate().publicKey;
    expect(keyName(other)).toBe(other.toBase58());
    expect(keyName(other)).toBe(other.toBase58());
  });

  it('keeps 8,192 names: past the bound, a name is decoded again into an equal key', () => {
    const first = Keypair.generate().publicKey.toBase58();
    const key = web3Key(first);
    for (let i = 0; i < 8_192; i++) web3Key(Keypair.generate().publicKey.toBase58());
    const again = web3Key(first);
    expect(again).not.toBe(key);
    expect(again.equals(key)).toBe(true);
    expect(keyName(again)).toBe(first);
  });
});
