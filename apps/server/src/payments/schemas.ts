import { z } from '@hono/zod-openapi';
import {
  ACTION_TYPES,
  currencyField,
  ESCROW_EXPIRY_ACTIONS,
  ESCROW_PURPOSES,
  ESCROW_STATUSES,
  PRIORITY_LEVELS,
  TRANSACTION_KINDS,
} from '@token-actions/core';
import { ErrorCode, KEY_EXAMPLE, SIGNATURE_EXAMPLE, TransactionStatus } from '../docs/components.js';

// Request shapes are declared once, in core, where the use-cases take them; the routes' OpenAPI
// declarations use the same schemas (imported from core by each route). The responses below are
// the HTTP rendering of use-case outcomes, so they live here. Closed sets are `z.enum` here:
// responses are not validated, so the enum only documents what the service sends.

export const txId = z
  .string()
  .openapi({ description: 'Transaction signature (base58, 64 bytes)', example: SIGNATURE_EXAMPLE });
const publicKey = (description: string) =>
  z.string().openapi({ description: `${description} (base58, 32 bytes)`, example: KEY_EXAMPLE });
const message = (example: string) => z.string().openapi({ description: 'What happened', example });
const escrowId = z
  .string()
  .openapi({ description: 'Present when the funds went to escrow', example: 'esc_4f1c9a2b' });

export const ErrorResponse = z
  .object({
    message: z.string().openapi({ example: 'amount must be a positive decimal' }),
    code: ErrorCode,
  })
  .openapi('ErrorResponse', {
    description:
      'Interface A error: one human-readable sentence, and the stable code to branch on (the set interface B uses)',
  });

export const MintNftResponse = z
  .object({
    message: message('NFT minted'),
    transactionId: txId,
    mint: publicKey('The new NFT mint'),
  })
  .openapi('MintNftResponse');

export const DonationResponse = z
  .object({
    message: message('Donation of 1.5 SOL submitted'),
    transactionId: txId,
    escrowId: escrowId.optional(),
  })
  .openapi('DonationResponse');

/** The answer of a charity donation or a merchant payment: the escrow's id when it went to one. */
export function submittedJson(out: { message: string; transactionId: string; escrowId?: string }) {
  return {
    message: out.message,
    transactionId: out.transactionId,
    ...(out.escrowId ? { escrowId: out.escrowId } : {}),
  };
}

export const PaymentResponse = z
  .object({
    message: message('Payment of 2.5 USDC submitted'),
    transactionId: txId,
    escrowId: escrowId.optional(),
  })
  .openapi('PaymentResponse');

const baseUnits = (example: string) =>
  z.string().openapi({ description: 'Base units, a decimal integer string', example });

export const TransactionPreviewResponse = z
  .object({
    preview: z.string().openapi({
      description: 'Opaque, tamper-evident preview to pass to sign',
      example: 'v1.eyJ0eXBlIjoiZG9uYXRpb24ifQ.3q2-7w',
    }),
    transactionType: z.enum(ACTION_TYPES).openapi({ example: 'donation' }),
    expiresAt: z.string().openapi({ format: 'date-time', example: '2025-01-01T12:00:00.000Z' }),
    feeLamports: baseUnits('5000'),
    lastValidBlockHeight: z.string().openapi({ example: '1042' }),
    balanceChanges: z.array(
      z.object({
        account: publicKey('Account whose balance changes'),
        currency: currencyField,
        amount: z.string().openapi({ description: 'Signed decimal amount', example: '-2.5' }),
      }),
    ),
  })
  .openapi('TransactionPreviewResponse');

export const TransactionSignResponse = z
  .object({
    message: message('Donation of 2.5 USDC submitted'),
    transactionId: txId,
    escrowId: escrowId.optional(),
    mint: publicKey('The new NFT mint, for a mint').optional(),
  })
  .openapi('TransactionSignResponse');

export const TransactionTrackingResponse = z
  .object({
    transactionId: txId,
    explorerUrl: z.string().openapi({
      format: 'uri',
      example: `https://explorer.solana.com/tx/${SIGNATURE_EXAMPLE}?cluster=custom`,
    }),
    status: TransactionStatus,
    kind: z.enum(TRANSACTION_KINDS).optional().openapi({ example: 'donation' }),
    priority: z.enum(PRIORITY_LEVELS).optional().openapi({ example: 'Medium' }),
    computeUnitPrice: z
      .string()
      .optional()
      .openapi({ description: 'Micro-lamports per compute unit', example: '1200' }),
    computeUnitLimit: z.number().int().optional().openapi({ example: 20000 }),
    feeLamports: baseUnits('5024').optional(),
    slot: z.string().optional().openapi({ example: '1038' }),
    error: z.string().optional().openapi({ example: 'the sender cannot pay 2.5 USDC' }),
    escrowId: escrowId.optional(),
    mint: publicKey('The minted NFT, for a mint').optional(),
  })
  .openapi('TransactionTrackingResponse');

export const AccountCreateResponse = z
  .object({ publicKey: publicKey('The new managed account') })
  .openapi('AccountCreateResponse');

export const AccountResponse = z
  .object({
    publicKey: publicKey('The account'),
    managed: z.boolean().openapi({ description: 'The service holds its key', example: true }),
    balances: z.array(
      z.object({
        currency: currencyField,
        amount: z.string().openapi({ description: 'Whole units', example: '1000' }),
        baseUnits: baseUnits('1000000000'),
        decimals: z.number().int().openapi({ example: 6 }),
      }),
    ),
  })
  .openapi('AccountResponse');

export const AirdropResponse = z
  .object({ message: message('Airdropped 10 SOL'), transactionId: txId })
  .openapi('AirdropResponse');

export const EscrowResponse = z
  .object({
    id: z.string().openapi({ example: 'esc_4f1c9a2b' }),
    purpose: z.enum(ESCROW_PURPOSES).openapi({ example: 'charity_donation' }),
    payer: publicKey('Who funded the escrow'),
    beneficiary: publicKey('Who receives it on release'),
    currency: currencyField,
    amount: baseUnits('2500000'),
    status: z.enum(ESCROW_STATUSES).openapi({ example: 'held' }),
    fundingTransactionId: txId,
    settlementTransactionId: txId.optional(),
    expiresAt: z.string().openapi({ format: 'date-time', example: '2025-01-08T12:00:00.000Z' }),
    expiryAction: z
      .enum(ESCROW_EXPIRY_ACTIONS)
      .openapi({ description: 'What the worker does when it expires', example: 'refund' }),
    message: message('Escrow released').optional(),
    transactionId: txId.optional(),
  })
  .openapi('Escrow');

export const NftResponse = z
  .object({
    mint: publicKey('The NFT mint'),
    name: z.string().openapi({ example: 'Genesis #1' }),
    symbol: z.string().openapi({ example: 'GEN' }),
    uri: z.string().openapi({ example: 'https://example.org/1.json' }),
    supply: z.string().openapi({ example: '1' }),
    decimals: z.number().int().openapi({ example: 0 }),
    mintAuthority: publicKey('Mint authority, null once revoked').nullable(),
    updateAuthority: publicKey('Metadata update authority').nullable(),
    owner: publicKey('Holder of the token').nullable(),
  })
  .openapi('Nft');
