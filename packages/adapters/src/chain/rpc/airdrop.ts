import { SolanaJSONRPCError, type PublicKey as Web3PublicKey } from '@solana/web3.js';
import { type Currency, domainError, type PublicKey, type Signature } from '@token-actions/core';
import { err, ok } from 'neverthrow';
import { checkAmount, type Outcome, toKey } from '../shared/intents.js';
import type { RpcContext } from './context.js';
import { callJsonRpc, JsonRpcError } from './json-rpc.js';

/**
 * SOL through `requestAirdrop` (not on mainnet); tokens only on a token-actions localnet, through
 * its `localnet_mintTo` method, so the mint authority never leaves the localnet's process.
 * Anything else is NOT_SUPPORTED. Answers once the cluster reports the transaction.
 */
export function rpcAirdrop({ config, connection, fetchFn }: RpcContext) {
  const localnetFaucet = config.localnetFaucet ?? config.cluster === 'localnet';
  const airdropTimeoutMs = config.airdropTimeoutMs ?? 30_000;
  const ownMints = new Set(
    config.currencies.all.map((currency) => currency.mint).filter((mint) => mint !== undefined),
  );

  /** Waits until the cluster reports the transaction (the localnet does at once). */
  const seen = async (id: string): Promise<boolean> => {
    const deadline = Date.now() + airdropTimeoutMs;
    for (;;) {
      const [status] = (await connection.getSignatureStatuses([id])).value;
      if (status) return true;
      if (Date.now() > deadline) return false;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  };

  const requestLamports = async (to: Web3PublicKey, units: bigint): Promise<Outcome<string>> => {
    if (config.cluster === 'mainnet-beta') return err(domainError('NOT_SUPPORTED', 'mainnet has no faucet'));
    if (units > BigInt(Number.MAX_SAFE_INTEGER)) {
      return err(domainError('INVALID_AMOUNT', 'airdrop amount exceeds what the faucet can give'));
    }
    try {
      return ok(await connection.requestAirdrop(to, Number(units)));
    } catch (cause) {
      if (cause instanceof SolanaJSONRPCError && cause.code === -32602) {
        return err(domainError('INVALID_AMOUNT', cause.message.replace(/^airdrop to \S+ failed: /, '')));
      }
      throw cause;
    }
  };

  const mintTokens = async (to: PublicKey, currency: Currency, units: bigint): Promise<Outcome<string>> => {
    if (!localnetFaucet || !currency.mint || !ownMints.has(currency.mint)) {
      return err(domainError('NOT_SUPPORTED', `${config.cluster} cannot mint ${currency.code} here`));
    }
    try {
      const id = await callJsonRpc(fetchFn, config.rpcUrl, 'localnet_mintTo', [
        to,
        currency.mint,
        units.toString(),
      ]);
      return ok(String(id));
    } catch (cause) {
      if (cause instanceof JsonRpcError && cause.code === -32601) {
        return err(
          domainError(
            'NOT_SUPPORTED',
            `${config.rpcUrl} is not a token-actions localnet: it cannot mint tokens`,
          ),
        );
      }
      if (cause instanceof JsonRpcError && cause.code === -32602)
        return err(domainError('INVALID_AMOUNT', cause.message));
      throw cause;
    }
  };

  return async (to: PublicKey, currency: Currency, amount: bigint): Promise<Outcome<Signature>> => {
    const units = checkAmount(amount);
    if (units.isErr()) return err(units.error);
    const recipient = toKey(to, 'to');
    if (recipient.isErr()) return err(recipient.error);
    const sent =
      currency.mint === undefined
        ? await requestLamports(recipient.value, units.value)
        : await mintTokens(to, currency, units.value);
    if (sent.isErr()) return err(sent.error);
    const id = sent.value;
    if (!(await seen(id)))
      return err(
        domainError('CHAIN_UNAVAILABLE', `airdrop ${id} was not seen within ${airdropTimeoutMs} ms`),
      );
    return ok(id as Signature);
  };
}
