export {
  createOutboundGuard,
  type HostResolver,
  type OutboundGuard,
  type OutboundGuardConfig,
  type ResolvedAddress,
  refusedAddress,
} from './outbound-guard.js';
export {
  createStandardWebhook,
  createWebhookSender,
  deriveClientWebhookSecret,
  WEBHOOK_TOLERANCE_SEC,
  type WebhookSenderConfig,
  type WebhookVerification,
} from './standard.js';
