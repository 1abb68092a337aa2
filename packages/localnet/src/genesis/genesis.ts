import { TOKEN_PROGRAM_ID } from '@solana/spl-token';
import { PublicKey as Web3PublicKey } from '@solana/web3.js';
import { Currencies, type Currency, encodeBase58, type PublicKey, toBase64 } from '@token-actions/core';
import { TransactionMetadata } from 'litesvm';
import { moveTo } from '../clock/advance.js';
import { submitLocal } from '../executor/local.js';
import { JOURNAL_FORMAT, type StoredAccountJson } from '../persistence/records.js';
import type { LocalnetState } from '../state.js';
import type { LocalAccount } from '../types.js';
import { createMint, MINT_SIZE } from './instructions.js';
import { deriveSeed, type LocalSigner, signerFromSeed } from './keys.js';

const FAUCET_LAMPORTS = 1_000_000_000n * 1_000_000_000n;

/** The localnet's own keys, all derived from its seed: the same across restarts. */
export interface GenesisKeys {
  /** Mint authority of the stablecoin and the project token, and the faucet. */
  readonly authority: LocalSigner;
  readonly authorityKey: Web3PublicKey;
  readonly stableMint: LocalSigner;
  readonly projectMint: LocalSigner;
  readonly genesisHash: string;
  /** The node's identity (getIdentity, the leader of every slot). */
  readonly identity: string;
}

export function genesisKeys(seed: Uint8Array): GenesisKeys {
  const authority = signerFromSeed(deriveSeed(seed, 'mint-authority'));
  return {
    authority,
    authorityKey: new Web3PublicKey(authority.publicKey),
    stableMint: signerFromSeed(deriveSeed(seed, 'stable-mint')),
    projectMint: signerFromSeed(deriveSeed(seed, 'project-mint')),
    genesisHash: encodeBase58(deriveSeed(seed, 'genesis')),
    identity: encodeBase58(signerFromSeed(deriveSeed(seed, 'identity')).publicKey),
  };
}

/** SOL, the stablecoin (USDC, 6 decimals) and the project token (9 decimals), both classic SPL. */
export function currenciesOf(keys: GenesisKeys, projectTicker: string): Currencies {
  const tokenProgram = TOKEN_PROGRAM_ID.toBase58() as PublicKey;
  const mint = (signer: LocalSigner) => encodeBase58(signer.publicKey) as PublicKey;
  return new Currencies(
    { code: 'SOL', kind: 'native', decimals: 9 },
    { code: 'USDC', kind: 'stable', decimals: 6, mint: mint(keys.stableMint), tokenProgram },
    { code: projectTicker, kind: 'project', decimals: 9, mint: mint(keys.projectMint), tokenProgram },
  );
}

/** The mints the localnet can mint (its faucet's tokens). */
export function ownMint(state: LocalnetState, mint: string): Currency | undefined {
  const { stable, project } = state.currencies;
  return mint === stable.mint ? stable : mint === project.mint ? project : undefined;
}

export function storedAccount(account: LocalAccount): StoredAccountJson {
  return [
    account.address,
    account.lamports.toString(),
    account.owner,
    account.executable ? 1 : 0,
    toBase64(account.data),
  ];
}

/** A fresh chain: the journal's head, a funded faucet, and the two mints. */
export function createGenesis(state: LocalnetState): void {
  const { svm, clock, disk, keys, history } = state;
  disk.append(
    [
      {
        t: 'head',
        v: JOURNAL_FORMAT,
        genesis: keys.genesisHash,
        firstSlot: clock.firstSlot.toString(),
        gen: 0,
      },
    ],
    false,
  );
  moveTo(state, clock.slot);
  const funded = svm.native.airdrop(keys.authority.publicKey, FAUCET_LAMPORTS);
  if (!(funded instanceof TransactionMetadata)) throw new Error('localnet: funding the faucet failed');
  const faucet = svm.account(keys.authorityKey.toBase58())!;
  if (disk.journal) {
    history.knownAccounts.add(faucet.address);
    disk.append([{ t: 'acct', a: [storedAccount(faucet)] }], false);
  }
  const create = (mint: LocalSigner, decimals: number) => {
    const instructions = createMint(
      keys.authorityKey,
      new Web3PublicKey(mint.publicKey),
      decimals,
      keys.authorityKey,
      svm.rentExempt(MINT_SIZE),
    );
    const landed = submitLocal(state, instructions, [keys.authority, mint]);
    if (landed.isErr()) throw new Error(`localnet: creating a mint failed: ${landed.error.message}`);
  };
  create(keys.stableMint, 6);
  create(keys.projectMint, 9);
}

/** A restored chain must hold its mints: a directory of another chain would not. */
export function checkMints(state: LocalnetState): void {
  for (const currency of [state.currencies.stable, state.currencies.project]) {
    if (!state.svm.account(currency.mint!))
      throw new Error(`localnet: mint ${currency.mint} is missing from the restored state`);
  }
}
