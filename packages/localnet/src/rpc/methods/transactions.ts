import { toBase64 } from '@token-actions/core';
import type { Localnet } from '../../localnet.js';
import { accountReader, encodedAccount } from '../account-json.js';
import {
  atLeast,
  commitmentOf,
  configOf,
  decodeEncoded,
  listParam,
  pubkeyParam,
  signatureParam,
  wireRejectionError,
} from '../encoding.js';
import { invalidParams } from '../errors.js';
import { transactionEncodingOf, transactionWithMeta, versionedOf } from '../transaction-json.js';
import { type Methods, withContext } from './context.js';

const MAX_ACCOUNTS = 100;
const MAX_SIGNATURES = 256;
const MAX_FEE_ACCOUNTS = 128;
/** How far back getSignatureStatuses looks without searchTransactionHistory (the status cache). */
const STATUS_CACHE_SLOTS = 300n;

function simulatedAddresses(accounts: { addresses?: unknown } | undefined | null): string[] | undefined {
  if (accounts === undefined || accounts === null) return undefined;
  if (!Array.isArray(accounts.addresses))
    throw invalidParams('Invalid params: accounts.addresses must be an array');
  if (accounts.addresses.length > MAX_ACCOUNTS)
    throw invalidParams(`Too many accounts provided; max ${MAX_ACCOUNTS}`);
  return accounts.addresses.map(pubkeyParam);
}

/** Sending, simulating and looking transactions up; recent prioritization fees. */
export function transactionMethods(localnet: Localnet): Methods {
  const read = accountReader(localnet.account);
  return {
    sendTransaction: async (params) => {
      const config = configOf(params, 1);
      const wire = decodeEncoded(params[0], config.encoding);
      const sent = await localnet.sendWire(wire, { preflight: config.skipPreflight !== true });
      if (sent.isErr()) throw wireRejectionError(sent.error);
      return sent.value;
    },

    simulateTransaction: (params) => {
      const config = configOf(params, 1);
      const wire = decodeEncoded(params[0], config.encoding);
      const accounts = config.accounts as { addresses?: unknown; encoding?: unknown } | undefined | null;
      const addresses = simulatedAddresses(accounts);
      const simulated = localnet.simulateWire(wire, {
        sigVerify: config.sigVerify === true,
        replaceRecentBlockhash: config.replaceRecentBlockhash === true,
        ...(addresses ? { accounts: addresses } : {}),
      });
      if (simulated.isErr()) {
        const rejected = simulated.error;
        if (rejected.reason === 'malformed' && /sigVerify/.test(rejected.message))
          throw invalidParams(rejected.message);
        throw wireRejectionError(rejected);
      }
      const value = simulated.value;
      const encoding = accounts?.encoding ?? 'base64';
      return withContext(localnet, {
        err: value.err,
        logs: value.logs,
        accounts: value.accounts
          ? value.accounts.map((account) => (account ? encodedAccount(read, account, encoding) : null))
          : null,
        unitsConsumed: value.unitsConsumed,
        returnData: value.returnData
          ? { programId: value.returnData.programId, data: [toBase64(value.returnData.data), 'base64'] }
          : null,
        innerInstructions: null,
        ...(value.replacementBlockhash ? { replacementBlockhash: value.replacementBlockhash } : {}),
      });
    },

    getSignatureStatuses: (params) => {
      const signatures = listParam(params[0], MAX_SIGNATURES, 'signatures').map(signatureParam);
      const search = configOf(params, 1).searchTransactionHistory === true;
      const horizon = localnet.slot() - STATUS_CACHE_SLOTS;
      return withContext(
        localnet,
        signatures.map((signature) => {
          const status = localnet.landed(signature);
          if (!status || (!search && status.slot < horizon)) return null;
          return {
            slot: status.slot,
            confirmations: status.confirmations,
            err: status.err,
            status: status.err === null ? { Ok: null } : { Err: status.err },
            confirmationStatus: status.commitment,
          };
        }),
      );
    },

    getTransaction: (params) => {
      const signature = signatureParam(params[0]);
      const config = typeof params[1] === 'string' ? { encoding: params[1] } : configOf(params, 1);
      const commitment = commitmentOf(config, 'finalized');
      if (commitment === 'processed')
        throw invalidParams('Method does not support commitment below `confirmed`');
      const encoding = transactionEncodingOf(config);
      const versioned = versionedOf(config);
      const found = localnet.transaction(signature);
      if (!found || !atLeast(found.commitment, commitment)) return null;
      return {
        slot: found.slot,
        blockTime: found.blockTime,
        ...transactionWithMeta(found, encoding, versioned),
      };
    },

    getRecentPrioritizationFees: (params) => {
      const accounts = listParam(params[0] ?? [], MAX_FEE_ACCOUNTS, 'public keys').map(pubkeyParam);
      return localnet
        .prioritizationFees(accounts)
        .map((entry) => ({ slot: entry.slot, prioritizationFee: entry.fee }));
    },
  };
}
