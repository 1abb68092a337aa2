import { readFileSync } from 'node:fs';
import { getAssociatedTokenAddressSync, TOKEN_PROGRAM_ID } from '@solana/spl-token';
import {
  Connection,
  Keypair,
  LAMPORTS_PER_SOL,
  NONCE_ACCOUNT_LENGTH,
  PublicKey,
  SystemProgram,
  sendAndConfirmTransaction,
  Transaction,
} from '@solana/web3.js';
import { encodeBase58 } from '@token-actions/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UNSUPPORTED_METHODS } from '../src/rpc/methods/index.js';
import { mintsOf, type Served, serve } from './support/serve.js';

/**
 * Every member of web3.js's `Connection`, called against the localnet; the README's conformance
 * table says which the localnet answers, and this test fails when the two disagree (a member
 * missing from the table, one answered that the table says is not, or the reverse).
 */

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');

/** Rows of a README table between `<!-- name:start -->` and `<!-- name:end -->`, as cells. */
function tableRows(name: string): string[][] {
  const start = readme.indexOf(`<!-- ${name}:start -->`);
  const end = readme.indexOf(`<!-- ${name}:end -->`);
  expect(start).toBeGreaterThan(0);
  return readme
    .slice(start, end)
    .split('\n')
    .filter((line) => line.startsWith('|'))
    .slice(2) // the header and its rule
    .map((line) =>
      line
        .split('|')
        .slice(1, -1)
        .map((cell) => cell.trim()),
    );
}

const unquote = (cell: string) => cell.replace(/`/g, '');

/** web3.js's public `Connection` members: its prototype (private helpers aside) and the function fields. */
function connectionMembers(): string[] {
  const privateMembers = new Set([
    'getCancellationPromise',
    'getTransactionConfirmationPromise',
    'confirmTransactionUsingBlockHeightExceedanceStrategy',
    'confirmTransactionUsingDurableNonceStrategy',
    'confirmTransactionUsingLegacyTimeoutStrategy',
  ]);
  const fields = new Connection('http://127.0.0.1:1');
  const own = Object.keys(fields).filter(
    (name) =>
      !name.startsWith('_') && typeof (fields as unknown as Record<string, unknown>)[name] === 'function',
  );
  const prototype = Object.getOwnPropertyNames(Connection.prototype).filter(
    (name) => !name.startsWith('_') && name !== 'constructor' && !privateMembers.has(name),
  );
  return [...prototype, ...own].sort();
}

let served: Served;
let connection: Connection;
let payer: Keypair;
let usdc: PublicKey;
let tokenAccount: PublicKey;
let nonce: Keypair;
/** A landed transfer, finalized, and its slot. */
let signature: string;
let slot: number;

const transfer = (lamports = 1_000_000) =>
  new Transaction().add(
    SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: Keypair.generate().publicKey, lamports }),
  );

async function signed(tx = transfer()): Promise<Transaction> {
  const latest = await connection.getLatestBlockhash();
  tx.feePayer = payer.publicKey;
  tx.recentBlockhash = latest.blockhash;
  tx.lastValidBlockHeight = latest.lastValidBlockHeight;
  tx.sign(payer);
  return tx;
}

/** Resolves with the first notification a listener gets, after `trigger` makes one happen. */
function firstNotification<T>(
  subscribe: (resolve: (value: T) => void) => number,
  ids: Map<string, number>,
  name: string,
  trigger: () => Promise<unknown> = async () => {},
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name}: no notification`)), 20_000);
    const id = subscribe((value) => {
      clearTimeout(timer);
      resolve(value);
    });
    ids.set(name, id);
    // Let the subscription reach the server before the event.
    setTimeout(() => trigger().catch(reject), 300);
  });
}

beforeAll(async () => {
  served = await serve({ slotIntervalMs: 50, finalityDepthSlots: 4 });
  connection = new Connection(served.rpc.url, 'confirmed');
  payer = Keypair.generate();
  await connection.confirmTransaction({
    signature: await connection.requestAirdrop(payer.publicKey, 50 * LAMPORTS_PER_SOL),
    ...(await connection.getLatestBlockhash()),
  });
  usdc = new PublicKey((await mintsOf(served)).USDC!);
  await served.call('localnet_mintTo', [payer.publicKey.toBase58(), usdc.toBase58(), '2500000']);
  tokenAccount = getAssociatedTokenAddressSync(usdc, payer.publicKey);
  nonce = Keypair.generate();
  await sendAndConfirmTransaction(
    connection,
    new Transaction().add(
      ...SystemProgram.createNonceAccount({
        fromPubkey: payer.publicKey,
        noncePubkey: nonce.publicKey,
        authorizedPubkey: payer.publicKey,
        lamports: await connection.getMinimumBalanceForRentExemption(NONCE_ACCOUNT_LENGTH),
      }).instructions,
    ),
    [payer, nonce],
  );
  signature = await sendAndConfirmTransaction(connection, transfer(), [payer], { commitment: 'finalized' });
  slot = (await connection.getSignatureStatus(signature)).value!.slot;
});

afterAll(async () => {
  await served.close();
});

/** One call per member: resolves when the localnet answered it, rejects when it did not. */
function probes(): Record<string, () => Promise<unknown>> {
  const ids = new Map<string, number>();
  const owner = payer.publicKey;
  const someone = Keypair.generate().publicKey;
  const version = { maxSupportedTransactionVersion: 0 };
  const defined = async <T>(value: Promise<T>) => {
    const result = await value;
    expect(result).not.toBeUndefined();
    return result;
  };
  const sendTransfer = async () => connection.sendRawTransaction((await signed()).serialize());
  return {
    commitment: async () => expect(connection.commitment).toBe('confirmed'),
    rpcEndpoint: async () => expect(connection.rpcEndpoint).toBe(served.rpc.url),
    confirmTransaction: async () => {
      const tx = await signed();
      const sent = await connection.sendRawTransaction(tx.serialize());
      const result = await connection.confirmTransaction({
        signature: sent,
        blockhash: tx.recentBlockhash!,
        lastValidBlockHeight: tx.lastValidBlockHeight!,
      });
      expect(result.value.err).toBeNull();
    },
    getAccountInfo: async () => expect((await connection.getAccountInfo(owner))?.lamports).toBeGreaterThan(0),
    getAccountInfoAndContext: async () =>
      expect((await connection.getAccountInfoAndContext(owner)).value).not.toBeNull(),
    getAddressLookupTable: async () =>
      expect((await connection.getAddressLookupTable(someone)).value).toBeNull(),
    getBalance: async () => expect(await connection.getBalance(owner)).toBeGreaterThan(0),
    getBalanceAndContext: async () =>
      expect((await connection.getBalanceAndContext(owner)).value).toBeGreaterThan(0),
    getBlock: async () =>
      expect(
        (await connection.getBlock(slot, version))?.transactions.map((t) => t.transaction.signatures[0]),
      ).toContain(signature),
    getBlockHeight: async () => expect(await connection.getBlockHeight()).toBeGreaterThan(slot),
    getBlockProduction: async () =>
      expect(Object.keys((await connection.getBlockProduction()).value.byIdentity)).toHaveLength(1),
    getBlockSignatures: async () =>
      expect((await connection.getBlockSignatures(slot)).signatures).toContain(signature),
    getBlockTime: async () => expect(await connection.getBlockTime(slot)).toBeTypeOf('number'),
    getBlocks: async () => expect(await connection.getBlocks(slot - 1, slot)).toEqual([slot - 1, slot]),
    getClusterNodes: async () =>
      expect((await connection.getClusterNodes())[0]?.rpc).toBe(`127.0.0.1:${served.rpc.port}`),
    getConfirmedBlock: async () =>
      expect(
        (await connection.getConfirmedBlock(slot)).transactions.map((t) => t.transaction.signature),
      ).toHaveLength(1),
    getConfirmedBlockSignatures: async () =>
      expect((await connection.getConfirmedBlockSignatures(slot)).signatures).toContain(signature),
    getConfirmedSignaturesForAddress: () =>
      connection.getConfirmedSignaturesForAddress(
        owner,
        served.localnet.firstSlot > 0n ? Number(served.localnet.firstSlot) + 1 : 1,
        slot,
      ),
    getConfirmedSignaturesForAddress2: () => connection.getConfirmedSignaturesForAddress2(owner),
    getConfirmedTransaction: async () =>
      expect(await connection.getConfirmedTransaction(signature)).not.toBeNull(),
    getEpochInfo: async () => expect((await connection.getEpochInfo()).absoluteSlot).toBeGreaterThan(slot),
    getEpochSchedule: async () => expect((await connection.getEpochSchedule()).slotsPerEpoch).toBe(432_000),
    getFeeCalculatorForBlockhash: async () =>
      connection.getFeeCalculatorForBlockhash((await connection.getLatestBlockhash()).blockhash),
    getFeeForMessage: async () =>
      expect((await connection.getFeeForMessage((await signed()).compileMessage())).value).toBe(5_000),
    getFirstAvailableBlock: async () =>
      expect(await connection.getFirstAvailableBlock()).toBe(Number(served.localnet.firstSlot)),
    getGenesisHash: async () => expect(await connection.getGenesisHash()).toBe(served.localnet.genesisHash),
    getInflationGovernor: async () => expect((await connection.getInflationGovernor()).initial).toBe(0),
    getInflationRate: async () => expect((await connection.getInflationRate()).total).toBe(0),
    getInflationReward: async () => expect(await connection.getInflationReward([owner])).toEqual([null]),
    getLargestAccounts: async () =>
      expect((await connection.getLargestAccounts()).value.length).toBeGreaterThan(0),
    getLatestBlockhash: () => defined(connection.getLatestBlockhash()),
    getLatestBlockhashAndContext: () => defined(connection.getLatestBlockhashAndContext()),
    getLeaderSchedule: async () =>
      expect(Object.keys(await connection.getLeaderSchedule())).toEqual([served.localnet.identity]),
    getMinimumBalanceForRentExemption: async () =>
      expect(await connection.getMinimumBalanceForRentExemption(0)).toBe(890_880),
    getMinimumLedgerSlot: async () =>
      expect(await connection.getMinimumLedgerSlot()).toBe(Number(served.localnet.firstSlot)),
    getMultipleAccountsInfo: async () =>
      expect(await connection.getMultipleAccountsInfo([owner, someone])).toHaveLength(2),
    getMultipleAccountsInfoAndContext: async () =>
      expect((await connection.getMultipleAccountsInfoAndContext([owner])).value).toHaveLength(1),
    getMultipleParsedAccounts: async () => {
      const { value } = await connection.getMultipleParsedAccounts([tokenAccount, nonce.publicKey]);
      expect(value.map((account) => (account!.data as { program?: string }).program)).toEqual([
        'spl-token',
        'nonce',
      ]);
    },
    getNonce: async () =>
      expect((await connection.getNonce(nonce.publicKey))?.authorizedPubkey.equals(owner)).toBe(true),
    getNonceAndContext: async () =>
      expect((await connection.getNonceAndContext(nonce.publicKey)).value).not.toBeNull(),
    getParsedAccountInfo: async () =>
      expect((await connection.getParsedAccountInfo(tokenAccount)).value?.data).toMatchObject({
        program: 'spl-token',
      }),
    getParsedBlock: async () =>
      expect((await connection.getParsedBlock(slot, version)).transactions).toHaveLength(1),
    getParsedConfirmedTransaction: async () =>
      expect(await connection.getParsedConfirmedTransaction(signature)).not.toBeNull(),
    getParsedConfirmedTransactions: async () =>
      expect(await connection.getParsedConfirmedTransactions([signature])).toHaveLength(1),
    getParsedProgramAccounts: async () =>
      expect(
        await connection.getParsedProgramAccounts(TOKEN_PROGRAM_ID, {
          filters: [{ dataSize: 165 }, { memcmp: { offset: 32, bytes: owner.toBase58() } }],
        }),
      ).toHaveLength(1),
    getParsedTokenAccountsByOwner: async () =>
      expect((await connection.getParsedTokenAccountsByOwner(owner, { mint: usdc })).value).toHaveLength(1),
    getParsedTransaction: async () =>
      expect(await connection.getParsedTransaction(signature, version)).not.toBeNull(),
    getParsedTransactions: async () =>
      expect(await connection.getParsedTransactions([signature], version)).toHaveLength(1),
    getProgramAccounts: async () =>
      expect(
        await connection.getProgramAccounts(SystemProgram.programId, { filters: [{ dataSize: 80 }] }),
      ).toHaveLength(1),
    getRecentBlockhash: () => defined(connection.getRecentBlockhash()),
    getRecentBlockhashAndContext: () => defined(connection.getRecentBlockhashAndContext()),
    getRecentPerformanceSamples: async () =>
      expect(await connection.getRecentPerformanceSamples(5)).toBeInstanceOf(Array),
    getRecentPrioritizationFees: async () =>
      expect((await connection.getRecentPrioritizationFees()).length).toBeGreaterThan(0),
    getSignatureStatus: async () =>
      expect((await connection.getSignatureStatus(signature)).value?.slot).toBe(slot),
    getSignatureStatuses: async () =>
      expect((await connection.getSignatureStatuses([signature])).value).toHaveLength(1),
    getSignaturesForAddress: async () =>
      expect((await connection.getSignaturesForAddress(owner, { limit: 1 }))[0]?.signature).toBeDefined(),
    getSlot: async () => expect(await connection.getSlot()).toBeGreaterThan(slot),
    getSlotLeader: async () => expect(await connection.getSlotLeader()).toBe(served.localnet.identity),
    getSlotLeaders: async () => expect(await connection.getSlotLeaders(slot, 3)).toHaveLength(3),
    getStakeActivation: () => connection.getStakeActivation(someone),
    getStakeMinimumDelegation: async () =>
      expect((await connection.getStakeMinimumDelegation()).value).toBeGreaterThan(0),
    getSupply: async () => expect((await connection.getSupply()).value.total).toBeGreaterThan(0),
    getTokenAccountBalance: async () =>
      expect((await connection.getTokenAccountBalance(tokenAccount)).value.uiAmountString).toBe('2.5'),
    getTokenAccountsByOwner: async () =>
      expect(
        (await connection.getTokenAccountsByOwner(owner, { programId: TOKEN_PROGRAM_ID })).value,
      ).toHaveLength(1),
    getTokenLargestAccounts: async () =>
      expect((await connection.getTokenLargestAccounts(usdc)).value[0]?.address.equals(tokenAccount)).toBe(
        true,
      ),
    getTokenSupply: async () => expect((await connection.getTokenSupply(usdc)).value.amount).toBe('2500000'),
    getTotalSupply: async () => expect(await connection.getTotalSupply()).toBeGreaterThan(0),
    getTransaction: async () =>
      expect((await connection.getTransaction(signature, version))?.slot).toBe(slot),
    getTransactionCount: async () => expect(await connection.getTransactionCount()).toBeGreaterThan(0),
    getTransactions: async () =>
      expect(await connection.getTransactions([signature], version)).toHaveLength(1),
    getVersion: async () => expect((await connection.getVersion())['solana-core']).toBe('2.2.0'),
    getVoteAccounts: async () =>
      expect(await connection.getVoteAccounts()).toEqual({ current: [], delinquent: [] }),
    isBlockhashValid: async () =>
      expect(
        (await connection.isBlockhashValid((await connection.getLatestBlockhash()).blockhash)).value,
      ).toBe(true),
    onAccountChange: () =>
      firstNotification(
        (resolve) => connection.onAccountChange(owner, resolve),
        ids,
        'account',
        sendTransfer,
      ),
    onLogs: () =>
      firstNotification((resolve) => connection.onLogs(owner, resolve), ids, 'logs', sendTransfer),
    onProgramAccountChange: () =>
      firstNotification(
        (resolve) =>
          connection.onProgramAccountChange(SystemProgram.programId, resolve, { filters: [{ dataSize: 0 }] }),
        ids,
        'program',
        sendTransfer,
      ),
    onRootChange: () => firstNotification((resolve) => connection.onRootChange(resolve), ids, 'root'),
    onSignature: async () => {
      const tx = await signed();
      const id = tx.signatures[0]!.signature!;
      return firstNotification(
        (resolve) => connection.onSignature(encodeBase58(id), resolve),
        ids,
        'signature',
        () => connection.sendRawTransaction(tx.serialize()),
      );
    },
    onSignatureWithOptions: async () => {
      const tx = await signed();
      const notification = await firstNotification<{ type: string }>(
        (resolve) =>
          connection.onSignatureWithOptions(encodeBase58(tx.signatures[0]!.signature!), (n) => resolve(n), {
            enableReceivedNotification: true,
          }),
        ids,
        'signatureWithOptions',
        () => connection.sendRawTransaction(tx.serialize()),
      );
      expect(notification.type).toBe('received');
    },
    onSlotChange: () => firstNotification((resolve) => connection.onSlotChange(resolve), ids, 'slot'),
    onSlotUpdate: () => firstNotification((resolve) => connection.onSlotUpdate(resolve), ids, 'slotUpdate'),
    removeAccountChangeListener: () => connection.removeAccountChangeListener(ids.get('account')!),
    removeOnLogsListener: () => connection.removeOnLogsListener(ids.get('logs')!),
    removeProgramAccountChangeListener: () =>
      connection.removeProgramAccountChangeListener(ids.get('program')!),
    removeRootChangeListener: () => connection.removeRootChangeListener(ids.get('root')!),
    removeSignatureListener: () => connection.removeSignatureListener(ids.get('signatureWithOptions')!),
    removeSlotChangeListener: () => connection.removeSlotChangeListener(ids.get('slot')!),
    removeSlotUpdateListener: () => connection.removeSlotUpdateListener(ids.get('slotUpdate')!),
    requestAirdrop: async () =>
      expect(await connection.requestAirdrop(someone, LAMPORTS_PER_SOL)).toBeTypeOf('string'),
    sendEncodedTransaction: async () =>
      expect(
        await connection.sendEncodedTransaction((await signed()).serialize().toString('base64')),
      ).toBeTypeOf('string'),
    sendRawTransaction: async () => expect(await sendTransfer()).toBeTypeOf('string'),
    sendTransaction: async () =>
      expect(await connection.sendTransaction(transfer(), [payer])).toBeTypeOf('string'),
    simulateTransaction: async () =>
      expect((await connection.simulateTransaction(transfer(), [payer])).value.err).toBeNull(),
  };
}

describe('web3.js Connection conformance', () => {
  it('the README table lists every Connection member, and each answers as the table says', async () => {
    const table = tableRows('conformance');
    const answered = new Map(table.map((row) => [unquote(row[0]!), row[2]]));
    for (const value of answered.values()) expect(['yes', 'no']).toContain(value);
    const members = connectionMembers();
    expect([...answered.keys()].sort()).toEqual(members);
    const calls = probes();
    expect(Object.keys(calls).sort()).toEqual(members);

    const disagreements: string[] = [];
    let yes = 0;
    let no = 0;
    for (const member of members) {
      let outcome: 'yes' | 'no';
      try {
        await calls[member]!();
        outcome = 'yes';
      } catch (error) {
        // Not answered means the localnet said -32601; any other failure is a broken answer.
        if ((error as { code?: unknown }).code !== -32601)
          throw new Error(`${member}: ${(error as Error).message}`);
        outcome = 'no';
      }
      if (outcome === 'yes') yes++;
      else no++;
      if (outcome !== answered.get(member))
        disagreements.push(`${member}: README ${answered.get(member)}, localnet ${outcome}`);
    }
    expect(disagreements).toEqual([]);
    console.log(
      `web3.js Connection: ${members.length} members, ${yes} answered, ${no} not (as the README says)`,
    );
  });

  it('the methods the README lists as not answered are refused with -32601 and their reason', async () => {
    const listed = tableRows('unsupported').map((row) => unquote(row[0]!));
    expect(listed.sort()).toEqual(Object.keys(UNSUPPORTED_METHODS).sort());
    for (const method of listed) {
      const { error } = await served.call(method, []);
      expect(error?.code).toBe(-32601);
      expect(error?.message).toMatch(new RegExp(`^Method not found: ${method} was removed`));
    }
  });
});
