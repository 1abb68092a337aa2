import {
  type Account,
  type Mint,
  MULTISIG_SIZE,
  MultisigLayout,
  unpackAccount,
  unpackMint,
} from '@solana/spl-token';
import { PublicKey } from '@solana/web3.js';
import { type UiTokenAmount, uiTokenAmount } from './token-amount.js';
import { parseExtensions, type UiExtension } from './token-extensions.js';

/** `TokenAccountType` of agave's account decoder: `{type, info}` for a token account, mint or multisig. */
export type ParsedTokenState =
  | { readonly type: 'account'; readonly info: UiTokenAccount }
  | { readonly type: 'mint'; readonly info: UiMint }
  | { readonly type: 'multisig'; readonly info: UiMultisig };

export interface UiTokenAccount {
  readonly mint: string;
  readonly owner: string;
  readonly tokenAmount: UiTokenAmount;
  readonly delegate?: string;
  readonly state: 'initialized' | 'frozen';
  readonly isNative: boolean;
  readonly rentExemptReserve?: UiTokenAmount;
  readonly delegatedAmount?: UiTokenAmount;
  readonly closeAuthority?: string;
  readonly extensions?: readonly UiExtension[];
}

export interface UiMint {
  readonly mintAuthority: string | null;
  readonly supply: string;
  readonly decimals: number;
  readonly isInitialized: true;
  readonly freezeAuthority: string | null;
  readonly extensions?: readonly UiExtension[];
}

export interface UiMultisig {
  readonly numRequiredSigners: number;
  readonly numValidSigners: number;
  readonly isInitialized: true;
  readonly signers: readonly string[];
}

/** The decimals of a mint, or undefined when it cannot be read (then a token account stays unparsed). */
export type MintDecimals = (mint: string) => number | undefined;

const ANY_ADDRESS = PublicKey.default;

function accountInfo(data: Uint8Array, programId: PublicKey) {
  return {
    data: Buffer.from(data.buffer, data.byteOffset, data.byteLength),
    owner: programId,
    lamports: 0,
    executable: false,
  };
}

/** A token account as the program itself would accept it: initialized (spl-token-2022's `unpack` refuses the rest). */
export function unpackTokenAccount(data: Uint8Array, programId: string): Account | undefined {
  try {
    const account = unpackAccount(
      ANY_ADDRESS,
      accountInfo(data, new PublicKey(programId)),
      new PublicKey(programId),
    );
    return account.isInitialized ? account : undefined;
  } catch {
    return undefined;
  }
}

export function unpackTokenMint(data: Uint8Array, programId: string): Mint | undefined {
  try {
    const mint = unpackMint(
      ANY_ADDRESS,
      accountInfo(data, new PublicKey(programId)),
      new PublicKey(programId),
    );
    return mint.isInitialized ? mint : undefined;
  } catch {
    return undefined;
  }
}

const withExtensions = (extensions: UiExtension[]) => (extensions.length > 0 ? { extensions } : {});

function tokenAccountJson(account: Account, decimals: number): UiTokenAccount {
  return {
    mint: account.mint.toBase58(),
    owner: account.owner.toBase58(),
    tokenAmount: uiTokenAmount(account.amount, decimals),
    ...(account.delegate ? { delegate: account.delegate.toBase58() } : {}),
    state: account.isFrozen ? 'frozen' : 'initialized',
    isNative: account.isNative,
    ...(account.rentExemptReserve !== null
      ? { rentExemptReserve: uiTokenAmount(account.rentExemptReserve, decimals) }
      : {}),
    ...(account.delegate ? { delegatedAmount: uiTokenAmount(account.delegatedAmount, decimals) } : {}),
    ...(account.closeAuthority ? { closeAuthority: account.closeAuthority.toBase58() } : {}),
    ...withExtensions(parseExtensions({ kind: 'account', state: account })),
  };
}

function mintJson(mint: Mint): UiMint {
  return {
    mintAuthority: mint.mintAuthority?.toBase58() ?? null,
    supply: mint.supply.toString(),
    decimals: mint.decimals,
    isInitialized: true,
    freezeAuthority: mint.freezeAuthority?.toBase58() ?? null,
    ...withExtensions(parseExtensions({ kind: 'mint', state: mint })),
  };
}

function multisigJson(data: Uint8Array): UiMultisig | undefined {
  try {
    const multisig = MultisigLayout.decode(Buffer.from(data.buffer, data.byteOffset, data.byteLength));
    if (!multisig.isInitialized) return undefined;
    const keys = [
      multisig.signer1,
      multisig.signer2,
      multisig.signer3,
      multisig.signer4,
      multisig.signer5,
      multisig.signer6,
      multisig.signer7,
      multisig.signer8,
      multisig.signer9,
      multisig.signer10,
      multisig.signer11,
    ];
    return {
      numRequiredSigners: multisig.m,
      numValidSigners: multisig.n,
      isInitialized: true,
      signers: keys.filter((key) => !key.equals(PublicKey.default)).map((key) => key.toBase58()),
    };
  } catch {
    return undefined;
  }
}

/**
 * agave's `parse_token`: a token account first (it needs its mint's decimals), then a mint, then a
 * multisig; undefined when none fits, and the RPC then falls back to base64.
 */
export function parseTokenState(
  data: Uint8Array,
  programId: string,
  mintDecimals: MintDecimals,
): ParsedTokenState | undefined {
  const account = unpackTokenAccount(data, programId);
  if (account) {
    const decimals = mintDecimals(account.mint.toBase58());
    return decimals === undefined
      ? undefined
      : { type: 'account', info: tokenAccountJson(account, decimals) };
  }
  const mint = unpackTokenMint(data, programId);
  if (mint) return { type: 'mint', info: mintJson(mint) };
  if (data.length !== MULTISIG_SIZE) return undefined;
  const multisig = multisigJson(data);
  return multisig ? { type: 'multisig', info: multisig } : undefined;
}
