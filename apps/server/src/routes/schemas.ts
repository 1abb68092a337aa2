import { z } from '@hono/zod-openapi';

const publicKey = (description: string) =>
  z.string().openapi({
    description: `${description} (base58, 32 bytes)`,
    example: '9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin',
  });
const amount = z.string().openapi({
  description: 'Decimal amount in the currency, e.g. "1.5" (no exponent, at most the currency\'s decimals)',
  example: '1.5',
});
const priority = z
  .string()
  .openapi({ description: 'One of VeryHigh, High, Medium, Low, Min', example: 'Medium' });
const currency = z
  .string()
  .openapi({ description: 'One of the supported tickers (SOL, USDC, project token)', example: 'USDC' });
const txId = z.string().openapi({ description: 'Transaction signature (base58, 64 bytes)' });

export const ErrorResponse = z.object({ message: z.string() }).openapi('ErrorResponse');

export const MintNftRequest = z
  .strictObject({
    name: z.string().openapi({ description: 'Name of the NFT (at most 32 bytes)', example: 'Genesis #1' }),
    symbol: z.string().openapi({ description: 'Symbol of the NFT (at most 10 bytes)', example: 'GEN' }),
    uri: z.string().openapi({
      description: 'URI of the metadata (at most 200 bytes)',
      example: 'https://example.org/1.json',
    }),
    owner: publicKey('Wallet receiving the NFT; the treasury when absent').optional(),
    priority: priority.optional(),
  })
  .openapi('MintNftRequest');

export const MintNftResponse = z
  .object({ message: z.string(), transactionId: txId, mint: publicKey('The new NFT mint') })
  .openapi('MintNftResponse');

export const DonateRequest = z
  .strictObject({ account: publicKey('Managed sender account'), amount, priority })
  .openapi('DonateRequest');

export const DonationResponse = z
  .object({ message: z.string(), transactionId: txId, escrowId: z.string().optional() })
  .openapi('DonationResponse');

export const CharityDonationRequest = z
  .strictObject({
    charity: publicKey("Charity's account"),
    amount,
    currency,
    useEscrow: z.boolean().optional(),
    account: publicKey('Paying managed account; the project treasury when absent').optional(),
    priority: priority.optional(),
  })
  .openapi('CharityDonationRequest');

export const MerchantPaymentRequest = z
  .strictObject({
    merchant: publicKey("Merchant's account"),
    amount,
    currency,
    useEscrow: z.boolean().optional(),
    account: publicKey('Paying managed account; the project treasury when absent').optional(),
    priority: priority.optional(),
  })
  .openapi('MerchantPaymentRequest');

export const PaymentResponse = z
  .object({ message: z.string(), transactionId: txId, escrowId: z.string().optional() })
  .openapi('PaymentResponse');

const details = z.record(z.string(), z.unknown()).openapi({
  description:
    'Per type: donation {currency, amount, priority}; charity_donation {charity, amount, currency, useEscrow?, priority?}; merchant_payment {merchant, amount, currency, useEscrow?, priority?}; mint {name, symbol, uri, owner?, priority?}',
});
const transactionType = z
  .string()
  .openapi({ description: 'donation, charity_donation, merchant_payment or mint', example: 'donation' });

export const TransactionPreviewRequest = z
  .strictObject({ account: publicKey("Sender's account"), transactionType, details })
  .openapi('TransactionPreviewRequest');

export const TransactionPreviewResponse = z
  .object({
    preview: z.string().openapi({ description: 'Opaque, tamper-evident preview to pass to sign' }),
    transactionType: z.string(),
    expiresAt: z.string(),
    feeLamports: z.string(),
    lastValidBlockHeight: z.string(),
    balanceChanges: z.array(z.object({ account: z.string(), currency: z.string(), amount: z.string() })),
  })
  .openapi('TransactionPreviewResponse');

export const TransactionSignRequest = z
  .strictObject({ account: publicKey("Sender's account"), transactionType, details, preview: z.string() })
  .openapi('TransactionSignRequest');

export const TransactionSignResponse = z
  .object({
    message: z.string(),
    transactionId: txId,
    escrowId: z.string().optional(),
    mint: z.string().optional(),
  })
  .openapi('TransactionSignResponse');

export const TransactionTrackingResponse = z
  .object({
    transactionId: txId,
    explorerUrl: z.string(),
    status: z.enum(['pending', 'processed', 'confirmed', 'finalized', 'failed', 'expired']),
    kind: z.string().optional(),
    priority: z.string().optional(),
    computeUnitPrice: z.string().optional().openapi({ description: 'Micro-lamports per compute unit' }),
    computeUnitLimit: z.number().optional(),
    feeLamports: z.string().optional(),
    slot: z.string().optional(),
    error: z.string().optional(),
    escrowId: z.string().optional(),
    mint: z.string().optional(),
  })
  .openapi('TransactionTrackingResponse');

export const AccountCreateRequest = z
  .strictObject({ label: z.string().max(64).optional() })
  .openapi('AccountCreateRequest');
export const AccountResponse = z
  .object({
    publicKey: z.string(),
    managed: z.boolean(),
    balances: z.array(
      z.object({ currency: z.string(), amount: z.string(), baseUnits: z.string(), decimals: z.number() }),
    ),
  })
  .openapi('AccountResponse');
export const AirdropRequest = z.strictObject({ currency, amount }).openapi('AirdropRequest');
export const AirdropResponse = z
  .object({ message: z.string(), transactionId: txId })
  .openapi('AirdropResponse');

export const EscrowResponse = z
  .object({
    id: z.string(),
    purpose: z.string(),
    payer: z.string(),
    beneficiary: z.string(),
    currency: z.string(),
    amount: z.string(),
    status: z.enum(['held', 'released', 'refunded']),
    fundingTransactionId: z.string(),
    settlementTransactionId: z.string().optional(),
    expiresAt: z.string(),
    expiryAction: z.string(),
    message: z.string().optional(),
    transactionId: z.string().optional(),
  })
  .openapi('Escrow');

export const NftResponse = z
  .object({
    mint: z.string(),
    name: z.string(),
    symbol: z.string(),
    uri: z.string(),
    supply: z.string(),
    decimals: z.number(),
    mintAuthority: z.string().nullable(),
    updateAuthority: z.string().nullable(),
    owner: z.string().nullable(),
  })
  .openapi('Nft');
