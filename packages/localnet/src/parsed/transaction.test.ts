import {
  AuthorityType,
  createAssociatedTokenAccountIdempotentInstruction,
  createAssociatedTokenAccountInstruction,
  createInitializeMint2Instruction,
  createInitializeMintCloseAuthorityInstruction,
  createInitializeTransferFeeConfigInstruction,
  createMintToInstruction,
  createSetAuthorityInstruction,
  createTransferCheckedInstruction,
  createTransferCheckedWithFeeInstruction,
  createTransferInstruction,
  ExtensionType,
  getAssociatedTokenAddressSync,
  getMintLen,
  MINT_SIZE,
  TOKEN_2022_PROGRAM_ID,
  TOKEN_PROGRAM_ID,
} from '@solana/spl-token';
import {
  AddressLookupTableAccount,
  ComputeBudgetProgram,
  Keypair,
  PublicKey,
  SystemProgram,
  TransactionInstruction,
  TransactionMessage,
} from '@solana/web3.js';
import { encodeBase58 } from '@token-actions/core';
import { beforeAll, describe, expect, it } from 'vitest';
import { createTestChain, type TestChain } from '../../test/support/svm.js';
import { MEMO_V3_PROGRAM_ID, SYSTEM_PROGRAM_ID } from './program-ids.js';
import { collectTokenBalances } from './token-balances.js';
import {
  messageAccountKeys,
  parsedAccountKeys,
  parseInnerInstructions,
  parseMessage,
  parseTransaction,
} from './transaction.js';

let chain: TestChain;
const authority = Keypair.generate();
const A = authority.publicKey.toBase58();

beforeAll(() => {
  chain = createTestChain();
});

function programIdIndexes(message: { compiledInstructions: { programIdIndex: number }[] }) {
  return message.compiledInstructions.map((ix) => ix.programIdIndex);
}

describe('parseTransaction: SPL Token flow', () => {
  it('parses each instruction, the inner ones of the associated-token program, and token balances', () => {
    const mint = Keypair.generate();
    const payer = chain.payer.publicKey.toBase58();
    const created = chain.send(
      [
        SystemProgram.createAccount({
          fromPubkey: chain.payer.publicKey,
          newAccountPubkey: mint.publicKey,
          space: MINT_SIZE,
          lamports: Number(chain.rent(MINT_SIZE)),
          programId: TOKEN_PROGRAM_ID,
        }),
        createInitializeMint2Instruction(mint.publicKey, 6, authority.publicKey, null),
      ],
      [mint],
    );
    const parsedCreate = parseTransaction(created.transaction);
    expect(parsedCreate.signatures).toEqual(
      created.transaction.signatures.map((signature) => encodeBase58(signature)),
    );
    expect(parsedCreate.signatures).toHaveLength(2);
    expect(parsedCreate.message.instructions).toEqual([
      {
        program: 'system',
        programId: SYSTEM_PROGRAM_ID,
        parsed: {
          type: 'createAccount',
          info: {
            source: payer,
            newAccount: mint.publicKey.toBase58(),
            lamports: chain.rent(MINT_SIZE),
            space: 82n,
            owner: TOKEN_PROGRAM_ID.toBase58(),
          },
        },
        stackHeight: null,
      },
      {
        program: 'spl-token',
        programId: TOKEN_PROGRAM_ID.toBase58(),
        parsed: {
          type: 'initializeMint2',
          info: { mint: mint.publicKey.toBase58(), decimals: 6, mintAuthority: A },
        },
        stackHeight: null,
      },
    ]);
    expect(parsedCreate.message.accountKeys).toEqual([
      { pubkey: payer, writable: true, signer: true, source: 'transaction' },
      { pubkey: mint.publicKey.toBase58(), writable: true, signer: true, source: 'transaction' },
      { pubkey: SYSTEM_PROGRAM_ID, writable: false, signer: false, source: 'transaction' },
      { pubkey: TOKEN_PROGRAM_ID.toBase58(), writable: false, signer: false, source: 'transaction' },
    ]);
    expect(parsedCreate.message).not.toHaveProperty('addressTableLookups');

    const owner = Keypair.generate().publicKey;
    const ata = getAssociatedTokenAddressSync(mint.publicKey, owner);
    const withAta = chain.send(
      [
        createAssociatedTokenAccountInstruction(chain.payer.publicKey, ata, owner, mint.publicKey),
        createMintToInstruction(mint.publicKey, ata, authority.publicKey, 1_500_000n),
      ],
      [authority],
    );
    const message = parseMessage(withAta.transaction.message);
    expect(message.instructions[0]).toEqual({
      program: 'spl-associated-token-account',
      programId: 'ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL',
      parsed: {
        type: 'create',
        info: {
          source: payer,
          account: ata.toBase58(),
          wallet: owner.toBase58(),
          mint: mint.publicKey.toBase58(),
          systemProgram: SYSTEM_PROGRAM_ID,
          tokenProgram: TOKEN_PROGRAM_ID.toBase58(),
        },
      },
      stackHeight: null,
    });
    expect(message.instructions[1]).toMatchObject({
      parsed: {
        type: 'mintTo',
        info: {
          mint: mint.publicKey.toBase58(),
          account: ata.toBase58(),
          amount: '1500000',
          mintAuthority: A,
        },
      },
    });
    const keys = messageAccountKeys(withAta.transaction.message);
    const inner = parseInnerInstructions(withAta.innerInstructions, keys);
    expect(inner.map((entry) => entry.index)).toEqual([0]);
    const innerTypes = inner[0]!.instructions.map((ix) =>
      'parsed' in ix ? (ix.parsed as { type: string }).type : ix.programId,
    );
    expect(innerTypes).toEqual(
      expect.arrayContaining(['getAccountDataSize', 'createAccount', 'initializeAccount3']),
    );
    expect(inner[0]!.instructions.every((ix) => ix.stackHeight === 2)).toBe(true);

    // A transfer: pre and post balances from the accounts before and after it.
    const otherOwner = Keypair.generate().publicKey;
    const otherAta = getAssociatedTokenAddressSync(mint.publicKey, otherOwner);
    chain.send([
      createAssociatedTokenAccountIdempotentInstruction(
        chain.payer.publicKey,
        otherAta,
        otherOwner,
        mint.publicKey,
      ),
    ]);
    const ownerSigner = Keypair.generate();
    const signerAta = getAssociatedTokenAddressSync(mint.publicKey, ownerSigner.publicKey);
    chain.send(
      [
        createAssociatedTokenAccountIdempotentInstruction(
          chain.payer.publicKey,
          signerAta,
          ownerSigner.publicKey,
          mint.publicKey,
        ),
        createMintToInstruction(mint.publicKey, signerAta, authority.publicKey, 1_000_000n),
      ],
      [authority],
    );
    const transferIxs = [
      createTransferCheckedInstruction(
        signerAta,
        mint.publicKey,
        otherAta,
        ownerSigner.publicKey,
        250_000n,
        6,
      ),
      createTransferInstruction(signerAta, otherAta, ownerSigner.publicKey, 5n),
    ];
    const involved = [signerAta, otherAta, mint.publicKey].map((key) => key.toBase58());
    const before = chain.snapshot(involved);
    const transfer = chain.send(transferIxs, [ownerSigner]);
    const transferKeys = messageAccountKeys(transfer.transaction.message);
    const invoked = programIdIndexes(transfer.transaction.message);
    const at = (address: PublicKey) => transferKeys.indexOf(address.toBase58());
    expect(collectTokenBalances(transferKeys, invoked, (address) => before.get(address))).toEqual(
      [
        {
          accountIndex: at(signerAta),
          mint: mint.publicKey.toBase58(),
          uiTokenAmount: { amount: '1000000', decimals: 6, uiAmount: 1, uiAmountString: '1' },
          owner: ownerSigner.publicKey.toBase58(),
          programId: TOKEN_PROGRAM_ID.toBase58(),
        },
        {
          accountIndex: at(otherAta),
          mint: mint.publicKey.toBase58(),
          uiTokenAmount: { amount: '0', decimals: 6, uiAmount: 0, uiAmountString: '0' },
          owner: otherOwner.toBase58(),
          programId: TOKEN_PROGRAM_ID.toBase58(),
        },
      ].sort((a, b) => a.accountIndex - b.accountIndex),
    );
    const post = collectTokenBalances(transferKeys, invoked, chain.read);
    expect(post.map((balance) => balance.uiTokenAmount.uiAmountString).sort()).toEqual([
      '0.250005',
      '0.749995',
    ]);
    expect(
      parseMessage(transfer.transaction.message).instructions.map((ix) => 'parsed' in ix && ix.parsed),
    ).toEqual([
      {
        type: 'transferChecked',
        info: {
          source: signerAta.toBase58(),
          mint: mint.publicKey.toBase58(),
          destination: otherAta.toBase58(),
          authority: ownerSigner.publicKey.toBase58(),
          tokenAmount: { amount: '250000', decimals: 6, uiAmount: 0.25, uiAmountString: '0.25' },
        },
      },
      {
        type: 'transfer',
        info: {
          source: signerAta.toBase58(),
          destination: otherAta.toBase58(),
          authority: ownerSigner.publicKey.toBase58(),
          amount: '5',
        },
      },
    ]);
    // No token program in the transaction: no balances at all.
    expect(collectTokenBalances([payer, SYSTEM_PROGRAM_ID], [1], chain.read)).toEqual([]);
  });
});

describe('parseMessage: Token-2022 and other programs', () => {
  it('parses extension instructions and transferCheckedWithFee', () => {
    const mint = Keypair.generate();
    const space = getMintLen([ExtensionType.MintCloseAuthority, ExtensionType.TransferFeeConfig]);
    const created = chain.send(
      [
        SystemProgram.createAccount({
          fromPubkey: chain.payer.publicKey,
          newAccountPubkey: mint.publicKey,
          space,
          lamports: Number(chain.rent(space)),
          programId: TOKEN_2022_PROGRAM_ID,
        }),
        createInitializeMintCloseAuthorityInstruction(mint.publicKey, null, TOKEN_2022_PROGRAM_ID),
        createInitializeTransferFeeConfigInstruction(
          mint.publicKey,
          authority.publicKey,
          null,
          100,
          1_000n,
          TOKEN_2022_PROGRAM_ID,
        ),
        createInitializeMint2Instruction(mint.publicKey, 2, authority.publicKey, null, TOKEN_2022_PROGRAM_ID),
      ],
      [mint],
    );
    const M = mint.publicKey.toBase58();
    expect(
      parseMessage(created.transaction.message)
        .instructions.slice(1)
        .map((ix) => 'parsed' in ix && ix.parsed),
    ).toEqual([
      { type: 'initializeMintCloseAuthority', info: { mint: M, newAuthority: null } },
      {
        type: 'initializeTransferFeeConfig',
        info: { mint: M, transferFeeBasisPoints: 100, maximumFee: 1_000n, transferFeeConfigAuthority: A },
      },
      { type: 'initializeMint2', info: { mint: M, decimals: 2, mintAuthority: A } },
    ]);

    const owner = Keypair.generate();
    const source = getAssociatedTokenAddressSync(
      mint.publicKey,
      owner.publicKey,
      false,
      TOKEN_2022_PROGRAM_ID,
    );
    const destination = getAssociatedTokenAddressSync(
      mint.publicKey,
      authority.publicKey,
      false,
      TOKEN_2022_PROGRAM_ID,
    );
    chain.send(
      [
        createAssociatedTokenAccountIdempotentInstruction(
          chain.payer.publicKey,
          source,
          owner.publicKey,
          mint.publicKey,
          TOKEN_2022_PROGRAM_ID,
        ),
        createAssociatedTokenAccountIdempotentInstruction(
          chain.payer.publicKey,
          destination,
          authority.publicKey,
          mint.publicKey,
          TOKEN_2022_PROGRAM_ID,
        ),
        createMintToInstruction(
          mint.publicKey,
          source,
          authority.publicKey,
          10_000n,
          [],
          TOKEN_2022_PROGRAM_ID,
        ),
      ],
      [authority],
    );
    const sent = chain.send(
      [
        createTransferCheckedWithFeeInstruction(
          source,
          mint.publicKey,
          destination,
          owner.publicKey,
          5_000n,
          2,
          50n,
          [],
          TOKEN_2022_PROGRAM_ID,
        ),
        createSetAuthorityInstruction(
          source,
          owner.publicKey,
          AuthorityType.CloseAccount,
          authority.publicKey,
          [],
          TOKEN_2022_PROGRAM_ID,
        ),
      ],
      [owner],
    );
    const [withFee, setAuthority] = parseMessage(sent.transaction.message).instructions;
    expect(withFee).toEqual({
      program: 'spl-token',
      programId: TOKEN_2022_PROGRAM_ID.toBase58(),
      parsed: {
        type: 'transferCheckedWithFee',
        info: {
          source: source.toBase58(),
          mint: M,
          destination: destination.toBase58(),
          authority: owner.publicKey.toBase58(),
          tokenAmount: { amount: '5000', decimals: 2, uiAmount: 50, uiAmountString: '50' },
          feeAmount: { amount: '50', decimals: 2, uiAmount: 0.5, uiAmountString: '0.5' },
        },
      },
      stackHeight: null,
    });
    expect(setAuthority).toMatchObject({
      parsed: {
        type: 'setAuthority',
        info: {
          account: source.toBase58(),
          authorityType: 'closeAccount',
          newAuthority: A,
          authority: owner.publicKey.toBase58(),
        },
      },
    });
  });

  it('names multisig signers as agave parse_signers does', () => {
    const multisig = Keypair.generate().publicKey;
    const [s1, s2] = [Keypair.generate().publicKey, Keypair.generate().publicKey];
    const ix = createTransferInstruction(
      Keypair.generate().publicKey,
      Keypair.generate().publicKey,
      multisig,
      7n,
      [s1, s2],
    );
    const message = new TransactionMessage({
      payerKey: chain.payer.publicKey,
      recentBlockhash: encodeBase58(new Uint8Array(32).fill(1)),
      instructions: [ix],
    }).compileToLegacyMessage();
    expect(parseMessage(message).instructions[0]).toMatchObject({
      parsed: {
        type: 'transfer',
        info: {
          multisigAuthority: multisig.toBase58(),
          signers: [s1.toBase58(), s2.toBase58()],
          amount: '7',
        },
      },
    });
  });

  it('shows compute budget and unknown programs partially decoded, memos as text, and v0 lookups', () => {
    const unknown = Keypair.generate().publicKey;
    const table = new AddressLookupTableAccount({
      key: Keypair.generate().publicKey,
      state: {
        deactivationSlot: 2n ** 64n - 1n,
        lastExtendedSlot: 0,
        lastExtendedSlotStartIndex: 0,
        addresses: [Keypair.generate().publicKey, Keypair.generate().publicKey],
      },
    });
    const [writableLoaded, readonlyLoaded] = table.state.addresses as [PublicKey, PublicKey];
    const budget = ComputeBudgetProgram.setComputeUnitLimit({ units: 200_000 });
    const message = new TransactionMessage({
      payerKey: chain.payer.publicKey,
      recentBlockhash: encodeBase58(new Uint8Array(32).fill(2)),
      instructions: [
        budget,
        new TransactionInstruction({
          programId: new PublicKey(MEMO_V3_PROGRAM_ID),
          keys: [],
          data: Buffer.from('hello 🦖'),
        }),
        new TransactionInstruction({
          programId: unknown,
          keys: [
            { pubkey: writableLoaded, isSigner: false, isWritable: true },
            { pubkey: readonlyLoaded, isSigner: false, isWritable: false },
          ],
          data: Buffer.from([9, 8, 7]),
        }),
      ],
    }).compileToV0Message([table]);
    const loaded = { writable: [writableLoaded.toBase58()], readonly: [readonlyLoaded.toBase58()] };
    const parsed = parseMessage(message, loaded);
    expect(parsed.instructions).toEqual([
      {
        programId: 'ComputeBudget111111111111111111111111111111',
        accounts: [],
        data: encodeBase58(budget.data),
        stackHeight: null,
      },
      { program: 'spl-memo', programId: MEMO_V3_PROGRAM_ID, parsed: 'hello 🦖', stackHeight: null },
      {
        programId: unknown.toBase58(),
        accounts: [writableLoaded.toBase58(), readonlyLoaded.toBase58()],
        data: encodeBase58(Uint8Array.from([9, 8, 7])),
        stackHeight: null,
      },
    ]);
    expect(parsed.addressTableLookups).toEqual([
      { accountKey: table.key.toBase58(), writableIndexes: [0], readonlyIndexes: [1] },
    ]);
    expect(parsedAccountKeys(message, loaded).slice(-2)).toEqual([
      { pubkey: writableLoaded.toBase58(), writable: true, signer: false, source: 'lookupTable' },
      { pubkey: readonlyLoaded.toBase58(), writable: false, signer: false, source: 'lookupTable' },
    ]);
  });
});
