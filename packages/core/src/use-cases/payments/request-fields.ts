import { z } from 'zod';
import { PRIORITY_LEVELS } from '../../domain/priority.js';
import { ACTION_TYPES } from './pipeline/payment.js';

/**
 * Fields shared by the request schemas. They check JSON types only: every rule about values
 * (base58 keys, amounts, currencies, priorities) belongs to the use-case, so a library caller and
 * an HTTP caller meet the same rules and the same messages. The
 * metadata feeds the OpenAPI document the server generates from these schemas: a closed set is
 * declared there as an `enum` (so a generated client refuses `"Urgent"`) without the schema
 * refusing it before the use-case can say why.
 */
export const publicKeyField = (description: string) =>
  z.string().meta({
    description: `${description} (base58, 32 bytes)`,
    example: '9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin',
  });

export const amountField = z.string().meta({
  description: 'Decimal amount in the currency, e.g. "1.5" (no exponent, at most the currency\'s decimals)',
  example: '1.5',
});

export const priorityField = z.string().meta({
  id: 'Priority',
  description:
    'Priority fee level: the compute-unit price is this percentile of recent fees (Min 25th ... VeryHigh 95th)',
  enum: [...PRIORITY_LEVELS],
  example: 'Medium',
});

/**
 * The tickers are configuration (the project token's is chosen per deployment), so the server
 * writes this component's `enum` when it serves the document.
 */
export const currencyField = z.string().meta({
  id: 'Currency',
  description: 'A supported ticker: SOL, USDC or the project token',
  example: 'USDC',
});

/** Per type, the fields an action takes: checked by the use-case, not by the schema. */
export const detailsField = z.record(z.string(), z.unknown()).meta({
  description:
    'Per type: donation {currency, amount, priority}; charity_donation {charity, amount, currency, useEscrow?, priority?}; merchant_payment {merchant, amount, currency, useEscrow?, priority?}; mint {name, symbol, uri, owner?, priority?}',
  example: { currency: 'USDC', amount: '2.5', priority: 'Medium' },
});

export const transactionTypeField = z.string().meta({
  id: 'TransactionType',
  description: 'What the transaction does',
  enum: [...ACTION_TYPES],
  example: 'donation',
});

/** Like the tickers, the pairs are configuration (the pools); the server writes the `enum`. */
export const tokenPairField = z.string().meta({
  id: 'TokenPair',
  description: 'INPUT-OUTPUT tickers of a pool, e.g. SOL-USDC',
  example: 'SOL-USDC',
});
