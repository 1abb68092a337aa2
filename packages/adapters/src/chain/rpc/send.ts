import { SendTransactionError } from '@solana/web3.js';
import {
  type DomainError,
  describeTransactionError,
  domainError,
  encodeBase58,
  isZero,
  type ParsedMessage,
  parseTransaction,
  type Recent,
  type Signature,
} from '@token-actions/core';
import { err, ok } from 'neverthrow';
import type { Outcome } from '../shared/intents.js';
import type { RpcContext } from './context.js';

/** Maps the words of a `sendTransaction` rejection (web3.js keeps only the message and logs). */
function sendFailure(error: SendTransactionError, message?: ParsedMessage): DomainError {
  const text = error.transactionError.message;
  const logs = error.transactionError.logs ?? [];
  const context = { context: { rpc: text } };
  if (/blockhash not found/i.test(text)) {
    return domainError('INVALID_INPUT', 'blockhash not found or expired', context);
  }
  if (/signature verification/i.test(text)) {
    return domainError('INVALID_INPUT', 'transaction signature verification failed', context);
  }
  if (/insufficient funds for fee|no record of a prior credit/i.test(text)) {
    return domainError('INSUFFICIENT_FUNDS', 'the fee payer cannot pay the transaction fee', context);
  }
  const instruction = /Error processing Instruction (\d+): custom program error: 0x([0-9a-f]+)/i.exec(text);
  if (instruction) {
    const failure = describeTransactionError(
      { InstructionError: [Number(instruction[1]), { Custom: Number.parseInt(instruction[2]!, 16) }] },
      logs,
      message,
    );
    return domainError(
      failure.kind === 'insufficient_funds' ? 'INSUFFICIENT_FUNDS' : 'INVALID_INPUT',
      failure.message,
      context,
    );
  }
  return domainError('INVALID_INPUT', `transaction rejected: ${text.slice(0, 200)}`, context);
}

/**
 * `sendRawTransaction(wire, { skipPreflight: true, maxRetries: 0 })`: the caller rebroadcasts. The
 * message of every transaction sent is kept in `sent`, to name the failing program when a status
 * arrives without logs.
 */
export function rpcSend({ connection }: RpcContext, sent: Recent<string, ParsedMessage>) {
  return async (wire: Uint8Array): Promise<Outcome<Signature>> => {
    let message: ParsedMessage;
    let id: Signature;
    try {
      if (!(wire instanceof Uint8Array)) throw new Error('transaction must be bytes');
      const parsed = parseTransaction(wire);
      if (parsed.signatures.some(isZero))
        return err(domainError('INVALID_INPUT', 'transaction is missing a signature'));
      message = parsed.message;
      id = encodeBase58(parsed.signatures[0]!) as Signature;
    } catch (cause) {
      return err(domainError('INVALID_INPUT', `malformed transaction: ${(cause as Error).message}`));
    }
    try {
      await connection.sendRawTransaction(wire, { skipPreflight: true, maxRetries: 0 });
    } catch (cause) {
      if (cause instanceof SendTransactionError) {
        if (/already been processed/i.test(cause.transactionError.message)) return ok(id);
        return err(sendFailure(cause, message));
      }
      throw cause;
    }
    sent.remember(id, message);
    return ok(id);
  };
}
