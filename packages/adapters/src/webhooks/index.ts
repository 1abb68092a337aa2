export {
  createStandardWebhook,
  createWebhookSender,
  deriveClientWebhookSecret,
  WEBHOOK_TOLERANCE_SEC,
  type WebhookSenderConfig,
  type WebhookVerification,
} from './standard.js';
