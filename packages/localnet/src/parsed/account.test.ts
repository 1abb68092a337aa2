import {
  createAssociatedTokenAccountIdempotentInstruction,
  createInitializeMetadataPointerInstruction,
  createInitializeMint2Instruction,
  createInitializeMintCloseAuthorityInstruction,
  createInitializeMintInstruction,
  createInitializeMultisigInstruction,
  createInitializeTransferFeeConfigInstruction,
  createMintToInstruction,
  ExtensionType,
  getAssociatedTokenAddressSync,
  getMintLen,
  LENGTH_SIZE,
  MINT_SIZE,
  MULTISIG_SIZE,
  TOKEN_2022_PROGRAM_ID,
  TOKEN_PROGRAM_ID,
  TYPE_SIZE,
} from '@solana/spl-token';
import { createInitializeInstruction, createUpdateFieldInstruction, pack } from '@solana/spl-token-metadata';
import { Keypair, NONCE_ACCOUNT_LENGTH, NonceAccount, SystemProgram } from '@solana/web3.js';
import { encodeBase58, toBase64 } from '@token-actions/core';
import { beforeAll, describe, expect, it } from 'vitest';
import { createTestChain, type TestChain } from '../../test/support/svm.js';
import { EMPTY_ACCOUNT, encodeAccount, parseAccount } from './account.js';
import { toJson } from './json.js';

let chain: TestChain;
const authority = Keypair.generate();

function createMint(programId = TOKEN_PROGRAM_ID, decimals = 6) {
  const mint = Keypair.generate();
  chain.send(
    [
      SystemProgram.createAccount({
        fromPubkey: chain.payer.publicKey,
        newAccountPubkey: mint.publicKey,
        space: MINT_SIZE,
        lamports: Number(chain.rent(MINT_SIZE)),
        programId,
      }),
      createInitializeMint2Instruction(
        mint.publicKey,
        decimals,
        authority.publicKey,
        authority.publicKey,
        programId,
      ),
    ],
    [mint],
  );
  return mint.publicKey;
}

beforeAll(() => {
  chain = createTestChain();
});

describe('parseAccount: SPL Token', () => {
  it('renders a token account as agave does, with the UI amount from its mint', () => {
    const mint = createMint();
    const owner = Keypair.generate().publicKey;
    const ata = getAssociatedTokenAddressSync(mint, owner);
    chain.send(
      [
        createAssociatedTokenAccountIdempotentInstruction(chain.payer.publicKey, ata, owner, mint),
        createMintToInstruction(mint, ata, authority.publicKey, 1_500_000n),
      ],
      [authority],
    );
    const account = chain.read(ata)!;
    expect(parseAccount(account, chain.read)).toEqual({
      program: 'spl-token',
      parsed: {
        type: 'account',
        info: {
          mint: mint.toBase58(),
          owner: owner.toBase58(),
          tokenAmount: { amount: '1500000', decimals: 6, uiAmount: 1.5, uiAmountString: '1.5' },
          state: 'initialized',
          isNative: false,
        },
      },
      space: 165,
    });
    // Without its mint, the RPC cannot render a token account and answers base64.
    expect(parseAccount(account)).toBeUndefined();
    expect(encodeAccount(account, 'jsonParsed').data).toEqual([toBase64(account.data), 'base64']);
  });

  it('renders a mint, with null authorities when there are none', () => {
    const mint = createMint(TOKEN_PROGRAM_ID, 9);
    expect(parseAccount(chain.read(mint)!)).toEqual({
      program: 'spl-token',
      parsed: {
        type: 'mint',
        info: {
          mintAuthority: authority.publicKey.toBase58(),
          supply: '0',
          decimals: 9,
          isInitialized: true,
          freezeAuthority: authority.publicKey.toBase58(),
        },
      },
      space: 82,
    });
  });

  it('renders a multisig with its non-empty signers', () => {
    const multisig = Keypair.generate();
    const signers = [
      Keypair.generate().publicKey,
      Keypair.generate().publicKey,
      Keypair.generate().publicKey,
    ];
    chain.send(
      [
        SystemProgram.createAccount({
          fromPubkey: chain.payer.publicKey,
          newAccountPubkey: multisig.publicKey,
          space: MULTISIG_SIZE,
          lamports: Number(chain.rent(MULTISIG_SIZE)),
          programId: TOKEN_PROGRAM_ID,
        }),
        createInitializeMultisigInstruction(multisig.publicKey, signers, 2),
      ],
      [multisig],
    );
    expect(parseAccount(chain.read(multisig.publicKey)!)?.parsed).toEqual({
      type: 'multisig',
      info: {
        numRequiredSigners: 2,
        numValidSigners: 3,
        isInitialized: true,
        signers: signers.map((key) => key.toBase58()),
      },
    });
  });
});

describe('parseAccount: Token-2022 with extensions', () => {
  it('renders a mint with metadata pointer, close authority, transfer fee and token metadata', () => {
    const mint = Keypair.generate();
    const a = authority.publicKey;
    const metadata = {
      mint: mint.publicKey,
      updateAuthority: a,
      name: 'Project token',
      symbol: 'PROJ',
      uri: 'https://example.test/proj.json',
      additionalMetadata: [['site', 'example.test']] as [string, string][],
    };
    const space = getMintLen([
      ExtensionType.MetadataPointer,
      ExtensionType.MintCloseAuthority,
      ExtensionType.TransferFeeConfig,
    ]);
    const metadataSpace = TYPE_SIZE + LENGTH_SIZE + pack(metadata).length;
    chain.send(
      [
        SystemProgram.createAccount({
          fromPubkey: chain.payer.publicKey,
          newAccountPubkey: mint.publicKey,
          space,
          lamports: Number(chain.rent(space + metadataSpace)),
          programId: TOKEN_2022_PROGRAM_ID,
        }),
        createInitializeMetadataPointerInstruction(mint.publicKey, a, mint.publicKey, TOKEN_2022_PROGRAM_ID),
        createInitializeMintCloseAuthorityInstruction(mint.publicKey, a, TOKEN_2022_PROGRAM_ID),
        createInitializeTransferFeeConfigInstruction(mint.publicKey, a, a, 50, 5_000n, TOKEN_2022_PROGRAM_ID),
        createInitializeMintInstruction(mint.publicKey, 6, a, null, TOKEN_2022_PROGRAM_ID),
        createInitializeInstruction({
          programId: TOKEN_2022_PROGRAM_ID,
          metadata: mint.publicKey,
          updateAuthority: a,
          mint: mint.publicKey,
          mintAuthority: a,
          name: metadata.name,
          symbol: metadata.symbol,
          uri: metadata.uri,
        }),
        createUpdateFieldInstruction({
          programId: TOKEN_2022_PROGRAM_ID,
          metadata: mint.publicKey,
          updateAuthority: a,
          field: 'site',
          value: 'example.test',
        }),
      ],
      [mint, authority],
    );
    const account = chain.read(mint.publicKey)!;
    const fee = { epoch: 0n, maximumFee: 5_000n, transferFeeBasisPoints: 50 };
    expect(parseAccount(account)).toEqual({
      program: 'spl-token-2022',
      parsed: {
        type: 'mint',
        info: {
          mintAuthority: a.toBase58(),
          supply: '0',
          decimals: 6,
          isInitialized: true,
          freezeAuthority: null,
          extensions: [
            {
              extension: 'metadataPointer',
              state: { authority: a.toBase58(), metadataAddress: mint.publicKey.toBase58() },
            },
            { extension: 'mintCloseAuthority', state: { closeAuthority: a.toBase58() } },
            {
              extension: 'transferFeeConfig',
              state: {
                transferFeeConfigAuthority: a.toBase58(),
                withdrawWithheldAuthority: a.toBase58(),
                withheldAmount: 0n,
                olderTransferFee: fee,
                newerTransferFee: fee,
              },
            },
            {
              extension: 'tokenMetadata',
              state: {
                updateAuthority: a.toBase58(),
                mint: mint.publicKey.toBase58(),
                name: 'Project token',
                symbol: 'PROJ',
                uri: 'https://example.test/proj.json',
                additionalMetadata: [['site', 'example.test']],
              },
            },
          ],
        },
      },
      space: account.data.length,
    });

    // A token account of that mint carries the extensions the mint requires, besides immutable owner.
    const owner = Keypair.generate().publicKey;
    const ata = getAssociatedTokenAddressSync(mint.publicKey, owner, false, TOKEN_2022_PROGRAM_ID);
    chain.send([
      createAssociatedTokenAccountIdempotentInstruction(
        chain.payer.publicKey,
        ata,
        owner,
        mint.publicKey,
        TOKEN_2022_PROGRAM_ID,
      ),
    ]);
    const tokenAccount = parseAccount(chain.read(ata)!, chain.read);
    expect(tokenAccount?.program).toBe('spl-token-2022');
    expect(tokenAccount?.parsed).toMatchObject({
      type: 'account',
      info: {
        mint: mint.publicKey.toBase58(),
        owner: owner.toBase58(),
        tokenAmount: { amount: '0', uiAmount: 0 },
      },
    });
    const extensions = (tokenAccount!.parsed.info as { extensions: unknown[] }).extensions;
    expect(extensions).toEqual(
      expect.arrayContaining([
        { extension: 'immutableOwner' },
        { extension: 'transferFeeAmount', state: { withheldAmount: 0n } },
      ]),
    );
    expect(extensions).toHaveLength(2);
  });
});

describe('parseAccount: system', () => {
  it('renders an initialized durable nonce and nothing else the system program owns', () => {
    const nonce = Keypair.generate();
    chain.send(
      SystemProgram.createNonceAccount({
        fromPubkey: chain.payer.publicKey,
        noncePubkey: nonce.publicKey,
        authorizedPubkey: authority.publicKey,
        lamports: Number(chain.rent(NONCE_ACCOUNT_LENGTH)),
      }).instructions,
      [nonce],
    );
    const account = chain.read(nonce.publicKey)!;
    const expected = NonceAccount.fromAccountData(Buffer.from(account.data));
    expect(parseAccount(account)).toEqual({
      program: 'nonce',
      parsed: {
        type: 'initialized',
        info: {
          authority: authority.publicKey.toBase58(),
          blockhash: expected.nonce,
          feeCalculator: { lamportsPerSignature: String(expected.feeCalculator.lamportsPerSignature) },
        },
      },
      space: 80,
    });
    expect(parseAccount(chain.read(chain.payer.publicKey)!)).toBeUndefined();
    expect(parseAccount({ ...account, data: new Uint8Array(80) })).toBeUndefined();
  });
});

describe('encodeAccount', () => {
  const account = {
    lamports: 5n,
    owner: Keypair.generate().publicKey.toBase58(),
    data: Uint8Array.from([1, 2, 3, 4]),
    executable: false,
  };

  it('answers each encoding in the RPC shape', () => {
    expect(encodeAccount(account, 'base64')).toEqual({
      lamports: 5n,
      data: [toBase64(account.data), 'base64'],
      owner: account.owner,
      executable: false,
      rentEpoch: 18446744073709551615n,
      space: 4,
    });
    expect(encodeAccount(account, 'base58').data).toEqual([encodeBase58(account.data), 'base58']);
    expect(encodeAccount(account, 'binary').data).toBe(encodeBase58(account.data));
    expect(encodeAccount(account, 'jsonParsed').data).toEqual([toBase64(account.data), 'base64']);
    expect(encodeAccount(account, 'base64+zstd').data).toEqual([toBase64(account.data), 'base64']);
    expect(toJson(encodeAccount(account, 'base64'))).toBe(
      `{"lamports":5,"data":["AQIDBA==","base64"],"owner":"${account.owner}","executable":false,"rentEpoch":18446744073709551615,"space":4}`,
    );
  });

  it('slices data as agave slice_data does, and refuses base58 for large accounts', () => {
    expect(encodeAccount(account, 'base64', { dataSlice: { offset: 1, length: 2 } }).data).toEqual([
      toBase64(Uint8Array.from([2, 3])),
      'base64',
    ]);
    expect(encodeAccount(account, 'base64', { dataSlice: { offset: 3, length: 9 } }).data).toEqual([
      'BA==',
      'base64',
    ]);
    expect(encodeAccount(account, 'base64', { dataSlice: { offset: 9, length: 1 } }).data).toEqual([
      '',
      'base64',
    ]);
    expect(encodeAccount(account, 'base64', { dataSlice: { offset: 0, length: 1 } }).space).toBe(4);
    const large = { ...account, data: new Uint8Array(129) };
    expect(encodeAccount(large, 'base58').data).toEqual([
      'error: data too large for bs58 encoding',
      'base58',
    ]);
  });

  it('shows a deleted account as the RPC does', () => {
    expect(encodeAccount(EMPTY_ACCOUNT, 'base64')).toEqual({
      lamports: 0n,
      data: ['', 'base64'],
      owner: '11111111111111111111111111111111',
      executable: false,
      rentEpoch: 0n,
      space: 0,
    });
  });
});
