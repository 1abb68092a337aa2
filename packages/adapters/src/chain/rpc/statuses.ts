import type { TransactionError } from '@solana/web3.js';
import {
  type ChainCommitment,
  type ChainStatus,
  describeTransactionError,
  isSignature,
  type ParsedMessage,
  parseMessage,
  Recent,
  type Signature,
  type TransactionErrorJson,
} from '@token-actions/core';
import { err, ok } from 'neverthrow';
import type { Outcome } from '../shared/intents.js';
import { checkStatusBatch } from '../shared/reads.js';
import { REMEMBERED, type RpcContext } from './context.js';

/**
 * `getSignatureStatuses` with `searchTransactionHistory`; a failure is explained in the localnet's
 * words: from the transaction's logs once it is confirmed, before that from the message this
 * adapter sent (`sent`) and the error code.
 */
export function rpcStatuses({ connection }: RpcContext, sent: Recent<string, ParsedMessage>) {
  /** Failure descriptions read from a confirmed transaction: they never change. */
  const failures = new Recent<string, string>(REMEMBERED);

  const describeLanded = async (
    id: string,
    error: TransactionError,
    level: ChainCommitment,
  ): Promise<string> => {
    const known = failures.get(id);
    if (known) return known;
    if (level !== 'processed') {
      const found = await connection.getTransaction(id, {
        commitment: 'confirmed',
        maxSupportedTransactionVersion: 0,
      });
      if (found) {
        const described = describeTransactionError(
          error as TransactionErrorJson,
          found.meta?.logMessages ?? [],
          parseMessage(found.transaction.message.serialize()),
        ).message;
        failures.remember(id, described);
        return described;
      }
    }
    return describeTransactionError(error as TransactionErrorJson, [], sent.get(id)).message;
  };

  return async (ids: readonly Signature[]): Promise<Outcome<readonly (ChainStatus | null)[]>> => {
    const checked = checkStatusBatch(ids);
    if (checked.isErr()) return err(checked.error);
    const valid = ids.filter((id) => isSignature(id));
    const statuses =
      valid.length === 0
        ? []
        : (await connection.getSignatureStatuses([...valid], { searchTransactionHistory: true })).value;
    const byId = new Map(valid.map((id, index) => [id as string, statuses[index] ?? null]));
    return ok(
      await Promise.all(
        ids.map(async (id): Promise<ChainStatus | null> => {
          const status = byId.get(id);
          if (!status) return null;
          const level: ChainCommitment =
            status.confirmationStatus ?? (status.confirmations === null ? 'finalized' : 'confirmed');
          const slot = BigInt(status.slot);
          if (!status.err) return { commitment: level, slot };
          return { commitment: level, slot, error: await describeLanded(id, status.err, level) };
        }),
      ),
    );
  };
}
