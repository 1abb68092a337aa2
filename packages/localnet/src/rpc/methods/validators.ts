import type { Localnet } from '../../localnet.js';
import { commitmentOf, configOf, integerParam, listParam, pubkeyParam, U64_MAX_TEXT } from '../encoding.js';
import { invalidParams, RpcError } from '../errors.js';
import { API_VERSION, type Methods, withContext } from './context.js';

const MAX_SLOT_LEADERS = 5_000n;
const MAX_INFLATION_ADDRESSES = 100;
/** LiteSVM runs every feature, `stake_raise_minimum_delegation_to_1_sol` included. */
const STAKE_MINIMUM_DELEGATION = 1_000_000_000n;
const NO_SNAPSHOT = -32008;

/** `host:port` of a URL, as getClusterNodes lists a node's sockets. */
function socketOf(url: string): string | null {
  try {
    const { host } = new URL(url);
    return host;
  } catch {
    return null;
  }
}

/**
 * The cluster as a one-node localnet shows it: its identity leads every slot, it holds no stake,
 * pays no inflation and keeps no snapshot.
 */
export function validatorMethods(localnet: Localnet): Methods {
  return {
    getIdentity: () => ({ identity: localnet.identity }),
    getSlotLeader: (params) => {
      commitmentOf(configOf(params, 0), 'finalized');
      return localnet.identity;
    },
    getSlotLeaders: (params) => {
      integerParam(params[0], 'start slot', BigInt(U64_MAX_TEXT));
      const limit = integerParam(params[1], 'limit', MAX_SLOT_LEADERS);
      return Array.from({ length: Number(limit) }, () => localnet.identity);
    },
    getClusterNodes: () => [
      {
        pubkey: localnet.identity,
        gossip: null,
        tpu: null,
        tpuQuic: null,
        rpc: socketOf(localnet.rpcUrl),
        pubsub: socketOf(localnet.wsUrl),
        version: API_VERSION,
        featureSet: 0,
        shredVersion: 0,
      },
    ],
    getVoteAccounts: (params) => {
      commitmentOf(configOf(params, 0), 'finalized');
      return { current: [], delinquent: [] };
    },
    getLeaderSchedule: (params) => {
      // The first param is a slot or the configuration (web3.js sends the configuration alone).
      const slotGiven = params[0] !== undefined && params[0] !== null && typeof params[0] !== 'object';
      const config = configOf(params, slotGiven ? 1 : 0);
      commitmentOf(config, 'finalized');
      const info = localnet.epochInfo();
      const slot = slotGiven ? integerParam(params[0], 'slot', BigInt(U64_MAX_TEXT)) : info.absoluteSlot;
      const epochStart = info.absoluteSlot - info.slotIndex;
      // Only the current epoch's schedule is known here (agave knows the next one too; null past it).
      if (slot < epochStart || slot >= epochStart + info.slotsInEpoch) return null;
      const identity = config.identity === undefined ? undefined : pubkeyParam(config.identity);
      if (identity !== undefined && identity !== localnet.identity) return {};
      return { [localnet.identity]: Array.from({ length: Number(info.slotsInEpoch) }, (_, i) => i) };
    },
    getEpochSchedule: () => localnet.epochSchedule(),
    getInflationGovernor: (params) => {
      commitmentOf(configOf(params, 0), 'finalized');
      return { initial: 0, terminal: 0, taper: 0, foundation: 0, foundationTerm: 0 };
    },
    getInflationRate: () => ({ total: 0, validator: 0, foundation: 0, epoch: localnet.epochInfo().epoch }),
    getInflationReward: (params) => {
      const addresses = listParam(params[0], MAX_INFLATION_ADDRESSES, 'public keys').map(pubkeyParam);
      commitmentOf(configOf(params, 1), 'finalized');
      return addresses.map(() => null);
    },
    getStakeMinimumDelegation: (params) => {
      commitmentOf(configOf(params, 0), 'finalized');
      return withContext(localnet, STAKE_MINIMUM_DELEGATION);
    },
    getSupply: (params) => {
      const config = configOf(params, 0);
      commitmentOf(config, 'finalized');
      const { total, circulating } = localnet.supply();
      return withContext(localnet, {
        total,
        circulating,
        nonCirculating: total - circulating,
        nonCirculatingAccounts: [],
      });
    },
    getLargestAccounts: (params) => {
      const config = configOf(params, 0);
      commitmentOf(config, 'finalized');
      const filter = config.filter;
      if (filter !== undefined && filter !== 'circulating' && filter !== 'nonCirculating')
        throw invalidParams('Invalid params: filter is "circulating" or "nonCirculating"');
      // Nothing is locked up here, so no account is non-circulating.
      return withContext(localnet, filter === 'nonCirculating' ? [] : localnet.largestAccounts());
    },
    getMaxRetransmitSlot: () => localnet.slot(),
    getMaxShredInsertSlot: () => localnet.slot(),
    getHighestSnapshotSlot: () => {
      throw new RpcError(NO_SNAPSHOT, 'No snapshot');
    },
  };
}
