import type { DomainError, Signature } from '@token-actions/core';
import type { Result } from 'neverthrow';
import type { Localnet } from '../../localnet.js';
import { integerParam, pubkeyParam, U64_MAX_TEXT } from '../encoding.js';
import { INTERNAL_ERROR, INVALID_PARAMS, invalidParams, RpcError } from '../errors.js';
import type { Methods } from './context.js';

function landedOrThrow(result: Result<Signature, DomainError>): Signature {
  if (result.isOk()) return result.value;
  const unavailable = result.error.code === 'CHAIN_UNAVAILABLE';
  throw new RpcError(
    unavailable ? INTERNAL_ERROR : INVALID_PARAMS,
    unavailable ? 'Internal error' : result.error.message,
  );
}

/**
 * The faucet, and what is custom to this localnet (prefixed `localnet_`, unknown to real clusters):
 * - `localnet_getMints` -> `{ mintAuthority, genesisHash, rpcUrl, wsUrl, currencies: [{code, kind, decimals, mint?, tokenProgram?}] }`
 * - `localnet_mintTo [owner, mint, amount]` -> signature: mints the localnet's own stablecoin or
 *   project token (the token counterpart of `requestAirdrop`; amount in base units, string or number).
 */
export function faucetMethods(localnet: Localnet): Methods {
  return {
    requestAirdrop: (params) => {
      const to = pubkeyParam(params[0]);
      const lamports = integerParam(params[1], 'lamports', BigInt(U64_MAX_TEXT));
      if (lamports === 0n) throw invalidParams('Invalid params: lamports must be greater than zero');
      return landedOrThrow(localnet.airdrop(to, localnet.currencies.native, lamports));
    },
    localnet_getMints: () => ({
      mintAuthority: localnet.mintAuthority,
      genesisHash: localnet.genesisHash,
      rpcUrl: localnet.rpcUrl,
      wsUrl: localnet.wsUrl,
      currencies: localnet.currencies.all.map((currency) => ({
        code: currency.code,
        kind: currency.kind,
        decimals: currency.decimals,
        ...(currency.mint ? { mint: currency.mint, tokenProgram: currency.tokenProgram } : {}),
      })),
    }),
    localnet_mintTo: (params) => {
      const to = pubkeyParam(params[0]);
      const mint = pubkeyParam(params[1]);
      const amount = integerParam(params[2], 'amount', BigInt(U64_MAX_TEXT));
      const currency = localnet.currencies.all.find((candidate) => candidate.mint === mint);
      if (!currency?.mint)
        throw invalidParams(
          'Invalid params: the localnet can mint only its own stablecoin and project token',
        );
      return landedOrThrow(localnet.airdrop(to, currency, amount));
    },
  };
}
