// The public API of @token-actions/core. Every name is listed on purpose: what is not here (the
// steps of the payment pipeline, the preview seal, status reconciliation, swap pricing internals) is
// free to change. packages/core/README.md walks through it.

// ── Solana Actions (blinks): the catalog, metadata and request reading, framework-free ───────────
export * from './blinks/index.js';
// ── Domain: values, their parsers and the wire format ────────────────────────────────────────────
export { decodeBase58, encodeBase58 } from './domain/base58.js';
export {
  Currencies,
  type Currency,
  type CurrencyKind,
  LAMPORTS_PER_SOL,
  NATIVE_DECIMALS,
} from './domain/currency.js';
export { FixedWindowCounter } from './domain/fixed-window.js';
export { sha256Hex } from './domain/hash.js';
// ── Solana wire format shared by the chain adapters and the localnet ─────────────────────────────
// Both may import only core, so the message compiler, the wire parser and the error descriptions
// they share live here.
export {
  type AccountAddress,
  type CompiledMessage,
  compileLegacyMessage,
  type InstructionToCompile,
} from './domain/legacy-message.js';
export { formatAmount, parseAmount, U64_MAX } from './domain/money.js';
export {
  PRIORITY_LEVELS,
  PRIORITY_PERCENTILE,
  type PriorityLevel,
  parsePriority,
  percentile,
} from './domain/priority.js';
export {
  isPublicKey,
  isSignature,
  type PublicKey,
  parsePublicKey,
  parseSignature,
  type Signature,
} from './domain/public-key.js';
export { Recent } from './domain/recent.js';
export {
  messageSigners,
  signaturePrefixLength,
  splitWireTransaction,
  verifyEd25519,
  type WireParts,
} from './domain/signed-transaction.js';
export {
  applySwap,
  BPS,
  minOutWithSlippage,
  type PoolReserves,
  ppmToPercent,
  quoteExactIn,
  type SwapQuoteMath,
  spotPrice,
} from './domain/swap-math.js';
export {
  DEFAULT_TENANT,
  DEFAULT_TENANT_ACCESS,
  parseTenantId,
  type Tenant,
  type TenantId,
  type TenantRecord,
} from './domain/tenant.js';
export { allPoolIds, parseTokenPair, poolIdOf, type TokenPair } from './domain/token-pair.js';
export {
  canTransition,
  checkTransition,
  refusedStatusMoves,
  TERMINAL_STATUSES,
  TRANSACTION_KINDS,
  type TransactionKind,
  type TransactionRecord,
  type TransactionStatusPatch,
  TX_STATUSES,
  type TxStatus,
} from './domain/transaction.js';
export {
  describeTransactionError,
  type Failure,
  type FailureKind,
  INSTRUCTION_ERRORS,
  type InstructionErrorJson,
  mentionsInsufficientFunds,
  simulationFailure,
  TRANSACTION_ERRORS,
  type TransactionErrorJson,
  transactionErrorText,
} from './domain/transaction-error.js';
export {
  assembleTransaction,
  bytesEqual,
  encodeShortVec,
  fromBase64,
  fromBase64Url,
  toBase64,
  toBase64Url,
  transactionIdOf,
} from './domain/wire.js';
export {
  type AddressTableLookup,
  computeUnitLimitOf,
  computeUnitPriceOf,
  feeOf,
  isWritable,
  isZero,
  MAX_WIRE_BYTES,
  type ParsedInstruction,
  type ParsedMessage,
  type ParsedTransaction,
  parseMessage,
  parseTransaction,
  writableKeys,
} from './domain/wire-message.js';
// ── Errors: the closed set of codes every use-case answers with ──────────────────────────────────
export {
  type DomainError,
  domainError,
  ERROR_CODES,
  type ErrorCode,
  type ErrorContextOf,
  type ErrorContexts,
  fromPortFailure,
  isDomainError,
  isDomainErrorOf,
} from './errors.js';
// ── OAuth protocol (framework-free) ──────────────────────────────────────────────────────────────
// The authorization server's functions; that module's index lists each name.
export * from './oauth/index.js';
// ── Ports: what the core needs from the world; adapters implement them, testing/ fakes them ──────
export {
  type AggregatorPort,
  type AggregatorQuote,
  type AggregatorQuoteRequest,
  type AggregatorSwap,
  type AggregatorSwapRequest,
  type RoutePlanStep,
  WRAPPED_SOL_MINT,
} from './ports/aggregator.js';
export type {
  ChainCommitment,
  ChainIntent,
  ChainPort,
  ChainStatus,
  ClusterInfo,
  MintNftIntent,
  NftMetadata,
  PreparedTransaction,
  PrepareOptions,
  PrioritizationFee,
  TransferIntent,
  TransferLeg,
  TransfersIntent,
} from './ports/chain.js';
export type { ClockPort, IdsPort, MacPort } from './ports/clock.js';
export type { FeeOraclePort } from './ports/fee-oracle.js';
export type { HeldKey, KeystorePort } from './ports/keystore.js';
export type {
  AuthorizationCodeRecord,
  ConsumedCode,
  OAuthClientRecord,
  OAuthClientStore,
  OAuthClientType,
  OAuthScope,
  OAuthStore,
  OAuthTokenKind,
  OAuthTokenRecord,
  RefreshRotation,
  SiwsNonceRecord,
  StoredOAuthToken,
  TokenEndpointAuthMethod,
} from './ports/oauth.js';
export type { OutboundUrlPolicy } from './ports/outbound.js';
export type { RateLimitDecision, RateLimiterPort } from './ports/rate-limit.js';
export {
  type ApiKeyRecord,
  type ApiKeyStore,
  type ClaimedTransaction,
  ESCROW_EXPIRY_ACTIONS,
  ESCROW_PURPOSES,
  ESCROW_STATUSES,
  type EscrowExpiryAction,
  type EscrowPurpose,
  type EscrowRecord,
  type EscrowStatus,
  type EscrowStore,
  type IdempotencyBegin,
  type IdempotencyStore,
  isApiKeyActive,
  type ManagedAccountRecord,
  type NewApiKey,
  type StatusMove,
  type StorePort,
  type TenantStore,
  type TransactionStore,
  type UnsettledCursor,
} from './ports/store.js';
export {
  type DueQuery,
  type NewSwapRequest,
  overPromisedError,
  type PoolRecord,
  type ReservationPlan,
  releaseHops,
  reservationLimitError,
  reserveHops,
  SWAP_SOURCES,
  SWAP_STATUSES,
  type SwapHistoryPage,
  type SwapHistoryStart,
  type SwapHop,
  type SwapRequestRecord,
  type SwapSource,
  type SwapStatus,
  type SwapStore,
  type SwapTransaction,
  TERMINAL_SWAP_STATUSES,
  withTransaction,
} from './ports/swap-store.js';
export type {
  TransactionStatusEvent,
  WebhookEndpoint,
  WebhookEndpointStore,
} from './ports/webhook-endpoints.js';
export type {
  DeliveryAttempt,
  NewWebhookDelivery,
  WebhookDelivery,
  WebhookDeliveryStatus,
  WebhookSenderPort,
  WebhookStore,
} from './ports/webhooks.js';
// ── Use-cases: one module per operation, grouped in rooms named by the domain ────────────────────
// Each request schema is a zod schema and, under the same name, its type; the HTTP edge reuses the
// schemas for its OpenAPI document.

// ── Operator (admin): API keys and tenants ───────────────────────────────────────────────────────
export {
  type AdminDeps,
  API_KEY_PREFIX,
  CreateApiKeyRequest,
  createApiKey,
  getApiKey,
  type IssuedApiKey,
  listApiKeys,
  RotateApiKeyRequest,
  revokeApiKey,
  rotateApiKey,
} from './use-cases/admin/api-keys.js';
export { getTenant, listTenants, UpdateTenantRequest, updateTenant } from './use-cases/admin/tenants.js';
// ── Payments (interface A): donations, payments, mint, preview/sign, tracking, accounts, escrow ─
export {
  AccountCreateRequest,
  AirdropRequest,
  airdrop,
  type Balance,
  createAccount,
  getBalances,
  getNft,
} from './use-cases/payments/accounts.js';
export { CharityDonationRequest, charityDonate } from './use-cases/payments/charity-donate.js';
export {
  type ActionDeps,
  DEFAULT_POLICIES,
  type Policies,
  type ServiceAccounts,
} from './use-cases/payments/deps.js';
export { type DonateInput, DonateRequest, donate } from './use-cases/payments/donate.js';
export {
  type EscrowOutcome,
  type EscrowSettlement,
  getEscrow,
  settleEscrow,
  settleExpiredEscrows,
} from './use-cases/payments/escrow.js';
export { MerchantPaymentRequest, merchantPay } from './use-cases/payments/merchant-pay.js';
export { MintNftRequest, mint } from './use-cases/payments/mint.js';
// The payment pipeline's steps stay internal; its request model and the wallet path (used by the
// Solana Actions routes) are public.
export { NFT_LIMITS } from './use-cases/payments/pipeline/parse.js';
export {
  ACTION_TYPES,
  type Action,
  type ActionOptions,
  type ActionOutcome,
  type ActionType,
} from './use-cases/payments/pipeline/payment.js';
export { prepareForWallet, type WalletTransaction } from './use-cases/payments/pipeline/wallet.js';
export {
  type BalanceChange,
  type PreviewOutcome,
  preview,
  TransactionPreviewRequest,
} from './use-cases/payments/preview.js';
export { currencyField, priorityField, tokenPairField } from './use-cases/payments/request-fields.js';
export { sign, TransactionSignRequest } from './use-cases/payments/sign.js';
export { type TrackOutcome, track } from './use-cases/payments/track.js';
export {
  awaitsWalletSignature,
  sweepUnsettled,
  type TrackingPassOptions,
  trackingPass,
} from './use-cases/payments/tracking.js';
// ── Swaps (interface B): quotes, firm quotes, aggregator swaps, execution, settlement ────────────
// The embedded aggregator adapter (packages/adapters, aggregator/local) routes over the project's
// own pools with the same pricing and reservation as projectSwap, so mintOf, ppmToFraction,
// bestRoute, loadPools and reserveAndBuild stay public for it.
export {
  type AggregatorSwapOutcome,
  aggregatorSwap,
  mintOf,
  ppmToFraction,
} from './use-cases/swaps/aggregator-swap.js';
export {
  DEFAULT_SWAP_POLICIES,
  type SwapCaller,
  type SwapDeps,
  type SwapPolicies,
} from './use-cases/swaps/deps.js';
export { type ExecuteSwapOutcome, executeSwap, SwapExecuteRequest } from './use-cases/swaps/execute.js';
export { type BuiltSwap, projectSwap, reserveAndBuild } from './use-cases/swaps/firm-quote.js';
export { type PoolSeed, seedPools } from './use-cases/swaps/pools.js';
export { type IndicativeQuote, indicativeQuote } from './use-cases/swaps/quote.js';
export { bestRoute, loadPools, type PricedRoute } from './use-cases/swaps/routing.js';
export { notifySwaps, settleSwaps } from './use-cases/swaps/settle.js';
export { type SwapInfo, SwapInfoQuery, swapInfo } from './use-cases/swaps/swap-info.js';
export { SwapRequest } from './use-cases/swaps/swap-request.js';
export {
  type CompletionClaim,
  type CompletionResult,
  parseCompletionPayload,
  transactionComplete,
} from './use-cases/swaps/transaction-complete.js';
// ── Webhooks: outbound delivery, tenants' endpoints and status-change notifications ──────────────
export { deliverWebhooks } from './use-cases/webhooks/delivery.js';
export {
  AdminCreateWebhookEndpointRequest,
  CreateWebhookEndpointRequest,
  createWebhookEndpoint,
  createWebhookEndpointForTenant,
  deleteWebhookEndpoint,
  ENDPOINT_SIGNER_PREFIX,
  endpointSigner,
  getWebhookEndpoint,
  listWebhookEndpoints,
  MAX_ENDPOINTS_PER_TENANT,
  publishTransactionEvents,
  TRANSACTION_EVENT_STATUSES,
  TRANSACTION_EVENT_TYPES,
  transactionEventPayload,
  type WebhookEndpointDeps,
} from './use-cases/webhooks/endpoints.js';
