import type { Localnet } from '../../localnet.js';
import type { BlockUnavailable, LocalBlock } from '../../types.js';
import {
  type Commitment,
  commitmentOf,
  configOf,
  integerParam,
  pubkeyParam,
  signatureParam,
  U64_MAX_TEXT,
} from '../encoding.js';
import { invalidParams, RpcError } from '../errors.js';
import {
  transactionAccounts,
  transactionEncodingOf,
  transactionWithMeta,
  versionedOf,
} from '../transaction-json.js';
import { type Methods, withContext } from './context.js';

const MAX_SIGNATURES = 1_000;
/** agave's MAX_GET_CONFIRMED_BLOCKS_RANGE. */
const MAX_BLOCKS_RANGE = 500_000n;
const MAX_PERFORMANCE_SAMPLES = 720;
const U64_MAX = BigInt(U64_MAX_TEXT);
/** agave's custom error codes for blocks it cannot give. */
const BLOCK_CLEANED_UP = -32001;
const BLOCK_NOT_AVAILABLE = -32004;
const DETAILS = ['full', 'accounts', 'signatures', 'none'];

/** History methods answer at `confirmed` or `finalized` only (agave's `check_is_at_least_confirmed`). */
function confirmedCommitment(config: Record<string, unknown>): Exclude<Commitment, 'processed'> {
  const commitment = commitmentOf(config, 'finalized');
  if (commitment === 'processed') throw invalidParams('Method does not support commitment below `confirmed`');
  return commitment;
}

function unavailableError(unavailable: BlockUnavailable): RpcError {
  return unavailable.reason === 'before-first'
    ? new RpcError(
        BLOCK_CLEANED_UP,
        `Block ${unavailable.slot} cleaned up, does not exist on node. First available block: ${unavailable.firstSlot}`,
      )
    : new RpcError(BLOCK_NOT_AVAILABLE, `Block not available for slot ${unavailable.slot}`);
}

const isBlock = (value: LocalBlock | BlockUnavailable): value is LocalBlock => 'blockhash' in value;

function optionalSignature(value: unknown): string | undefined {
  return value === undefined || value === null ? undefined : signatureParam(value);
}

/** getBlock's transactions in the details asked for. */
function blockTransactions(localnet: Localnet, block: LocalBlock, config: Record<string, unknown>) {
  const details = config.transactionDetails ?? 'full';
  if (!DETAILS.includes(String(details)))
    throw invalidParams(`Invalid params: unknown transactionDetails: ${String(details).slice(0, 32)}`);
  const showRewards = config.rewards !== false;
  if (details === 'none') return {};
  if (details === 'signatures') return { signatures: block.signatures };
  const encoding = transactionEncodingOf(config);
  const versioned = versionedOf(config);
  const transactions = block.signatures.flatMap((signature) => {
    const found = localnet.transaction(signature);
    if (!found) return [];
    return [
      details === 'accounts'
        ? transactionAccounts(found, versioned, showRewards)
        : transactionWithMeta(found, encoding, versioned, showRewards),
    ];
  });
  return { transactions };
}

/** Address history and blocks: every slot holds a block (the localnet skips none). */
export function historyMethods(localnet: Localnet): Methods {
  return {
    getSignaturesForAddress: (params) => {
      const address = pubkeyParam(params[0]);
      const config = configOf(params, 1);
      const limit = config.limit ?? MAX_SIGNATURES;
      if (!Number.isSafeInteger(limit) || (limit as number) < 1 || (limit as number) > MAX_SIGNATURES)
        throw invalidParams(`Invalid limit; max ${MAX_SIGNATURES}`);
      const before = optionalSignature(config.before);
      const until = optionalSignature(config.until);
      return localnet.signaturesForAddress(address, {
        limit: limit as number,
        commitment: confirmedCommitment(config),
        ...(before ? { before } : {}),
        ...(until ? { until } : {}),
      });
    },

    getBlock: (params) => {
      const slot = integerParam(params[0], 'slot', U64_MAX);
      const config = typeof params[1] === 'string' ? { encoding: params[1] } : configOf(params, 1);
      const found = localnet.block(slot, confirmedCommitment(config));
      if (!isBlock(found)) throw unavailableError(found);
      return {
        blockHeight: found.blockHeight,
        blockTime: found.blockTime,
        blockhash: found.blockhash,
        parentSlot: found.parentSlot,
        previousBlockhash: found.previousBlockhash,
        ...(config.rewards !== false ? { rewards: [] } : {}),
        ...blockTransactions(localnet, found, config),
      };
    },

    getBlockTime: (params) => {
      const time = localnet.blockTime(integerParam(params[0], 'slot', U64_MAX), 'confirmed');
      if (typeof time !== 'number') throw unavailableError(time);
      return time;
    },

    getBlocks: (params) => {
      const start = integerParam(params[0], 'start slot', U64_MAX);
      // The end slot is optional: a configuration object may stand in its place.
      const hasEnd = typeof params[1] === 'number' || typeof params[1] === 'string';
      const commitment = confirmedCommitment(configOf(params, hasEnd ? 2 : 1));
      const end = hasEnd ? integerParam(params[1], 'end slot', U64_MAX) : localnet.committedSlot(commitment);
      if (end - start > MAX_BLOCKS_RANGE)
        throw invalidParams(`Slot range too large; max ${MAX_BLOCKS_RANGE}`);
      return localnet.blocks(start, end, commitment);
    },

    getBlocksWithLimit: (params) => {
      const start = integerParam(params[0], 'start slot', U64_MAX);
      const limit = integerParam(params[1], 'limit', MAX_BLOCKS_RANGE);
      const commitment = confirmedCommitment(configOf(params, 2));
      return limit === 0n ? [] : localnet.blocks(start, start + limit - 1n, commitment);
    },

    getFirstAvailableBlock: () => localnet.firstSlot,
    minimumLedgerSlot: () => localnet.firstSlot,
    getTransactionCount: (params) => {
      commitmentOf(configOf(params, 0), 'finalized');
      return localnet.transactionCount();
    },

    getBlockProduction: (params) => {
      const config = configOf(params, 0);
      commitmentOf(config, 'finalized');
      const current = localnet.slot();
      const epoch = localnet.epochInfo();
      const range = (config.range ?? {}) as { firstSlot?: unknown; lastSlot?: unknown };
      const firstSlot =
        range.firstSlot === undefined
          ? current - epoch.slotIndex
          : integerParam(range.firstSlot, 'range.firstSlot', U64_MAX);
      const lastSlot =
        range.lastSlot === undefined ? current : integerParam(range.lastSlot, 'range.lastSlot', U64_MAX);
      if (lastSlot < firstSlot) throw invalidParams('Invalid params: lastSlot must be at least firstSlot');
      // Within the chain's slots (bigints: Math.max and Math.min take numbers only).
      let from = firstSlot;
      if (from < localnet.firstSlot) from = localnet.firstSlot;
      let to = lastSlot;
      if (to > current) to = current;
      const produced = to >= from ? to - from + 1n : 0n;
      const identity = config.identity === undefined ? undefined : pubkeyParam(config.identity);
      const byIdentity =
        identity === undefined || identity === localnet.identity
          ? { [localnet.identity]: [produced, produced] }
          : {};
      return withContext(localnet, { byIdentity, range: { firstSlot, lastSlot } });
    },

    getBlockCommitment: (params) => {
      integerParam(params[0], 'slot', U64_MAX);
      // No stake votes on a localnet: agave answers a null commitment array for such a block.
      return { commitment: null, totalStake: 0 };
    },

    getRecentPerformanceSamples: (params) => {
      const limit =
        params[0] === undefined || params[0] === null
          ? MAX_PERFORMANCE_SAMPLES
          : Number(integerParam(params[0], 'limit', BigInt(MAX_PERFORMANCE_SAMPLES)));
      return localnet.performanceSamples(limit);
    },
  };
}
