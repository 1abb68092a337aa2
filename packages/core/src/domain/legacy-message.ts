import { bytesKey, decodeBase58, encodeBase58 } from './base58.js';
import { encodeShortVec } from './wire.js';

/** An account address as Solana SDKs hold it (`@solana/web3.js`'s PublicKey has this shape). */
export interface AccountAddress {
  toBytes(): Uint8Array;
}

/** An instruction to compile; `@solana/web3.js`'s TransactionInstruction has this shape. */
export interface InstructionToCompile {
  readonly programId: AccountAddress;
  readonly keys: readonly {
    readonly pubkey: AccountAddress;
    readonly isSigner: boolean;
    readonly isWritable: boolean;
  }[];
  readonly data: Uint8Array;
}

export interface CompiledMessage {
  /** The legacy message bytes every signer signs. */
  readonly bytes: Uint8Array;
  /** Base58 account keys in message order. */
  readonly accountKeys: readonly string[];
  readonly numRequiredSignatures: number;
  readonly writable: readonly boolean[];
}

interface AccountMeta {
  readonly key: Uint8Array;
  signer: boolean;
  writable: boolean;
}

/** Signers before non-signers, writable before read-only within each: the order the runtime's
 * header counts describe. */
function group(meta: AccountMeta): number {
  return (meta.signer ? 0 : 2) + (meta.writable ? 0 : 1);
}

const blockhashBytes = new Map<string, Uint8Array>();

function decodeBlockhash(blockhash: string): Uint8Array {
  let bytes = blockhashBytes.get(blockhash);
  if (!bytes) {
    bytes = decodeBase58(blockhash);
    if (bytes?.length !== 32) throw new Error('a blockhash is 32 bytes');
    if (blockhashBytes.size > 1_000) blockhashBytes.clear();
    blockhashBytes.set(blockhash, bytes);
  }
  return bytes;
}

/**
 * Compiles a legacy message. @solana/web3.js v1's `compileMessage` does the same but sorts keys by
 * base58 string with localeCompare and costs ~2 ms a transaction; this costs a few microseconds.
 */
export function compileLegacyMessage(
  feePayer: AccountAddress,
  instructions: readonly InstructionToCompile[],
  blockhash: string,
): CompiledMessage {
  const metas = new Map<string, AccountMeta>();
  const touch = (pubkey: AccountAddress, signer: boolean, writable: boolean) => {
    const key = pubkey.toBytes();
    const id = bytesKey(key);
    const meta = metas.get(id);
    if (meta) {
      meta.signer ||= signer;
      meta.writable ||= writable;
    } else {
      metas.set(id, { key: new Uint8Array(key), signer, writable });
    }
    return id;
  };
  touch(feePayer, true, true);
  const compiled = instructions.map((ix) => ({
    accounts: ix.keys.map((k) => touch(k.pubkey, k.isSigner, k.isWritable)),
    program: touch(ix.programId, false, false),
    data: ix.data,
  }));

  const ordered = [...metas.entries()].sort((a, b) => group(a[1]) - group(b[1]));
  const index = new Map(ordered.map(([id], i) => [id, i]));
  const counts = [0, 0, 0, 0];
  for (const [, meta] of ordered) counts[group(meta)]! += 1;
  if (ordered.length > 256) throw new RangeError('too many accounts for one transaction');

  const chunks: Uint8Array[] = [
    Uint8Array.from([counts[0]! + counts[1]!, counts[1]!, counts[3]!]),
    encodeShortVec(ordered.length),
    ...ordered.map(([, meta]) => meta.key),
    decodeBlockhash(blockhash),
    encodeShortVec(compiled.length),
  ];
  for (const ix of compiled) {
    chunks.push(
      Uint8Array.of(index.get(ix.program)!),
      encodeShortVec(ix.accounts.length),
      Uint8Array.from(ix.accounts.map((id) => index.get(id)!)),
      encodeShortVec(ix.data.length),
      new Uint8Array(ix.data),
    );
  }
  const length = chunks.reduce((sum, chunk) => sum + chunk.length, 0);
  const bytes = new Uint8Array(length);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.length;
  }
  return {
    bytes,
    accountKeys: ordered.map(([, meta]) => encodeBase58(meta.key)),
    numRequiredSignatures: counts[0]! + counts[1]!,
    writable: ordered.map(([, meta]) => meta.writable),
  };
}
