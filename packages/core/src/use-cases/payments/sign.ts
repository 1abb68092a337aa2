import { err, ok, type ResultAsync, safeTry } from 'neverthrow';
import { z } from 'zod';
import { type DomainError, domainError } from '../../errors.js';
import type { ActionDeps } from './deps.js';
import { authorizeAction } from './pipeline/authorize.js';
import { parsePreviewRequest } from './pipeline/parse.js';
import { type ActionOptions, type ActionOutcome, outcomeOf } from './pipeline/payment.js';
import { planAction } from './pipeline/plan.js';
import { recordPlan } from './pipeline/record.js';
import { checkPreviewMatches, openPreview } from './pipeline/seal.js';
import { signPrepared } from './pipeline/sign.js';
import { detailsField, publicKeyField, transactionTypeField } from './request-fields.js';

export const TransactionSignRequest = z
  .strictObject({
    account: publicKeyField("Sender's account"),
    transactionType: transactionTypeField,
    details: detailsField,
    preview: z.string(),
  })
  .meta({ id: 'TransactionSignRequest' });
export type TransactionSignRequest = z.infer<typeof TransactionSignRequest>;

/**
 * Signs and sends exactly the transaction sealed in a preview. Ed25519 signatures are
 * deterministic, so signing the same preview again yields the same transaction id; the outbox
 * insert and the chain both dedupe by it, so the transfer happens once. The path is preview's with
 * the sealed transaction in place of a new one: parse, open the seal, authorize, plan, sign, record.
 */
export function sign(
  deps: ActionDeps,
  input: TransactionSignRequest,
  options: ActionOptions,
): ResultAsync<ActionOutcome, DomainError> {
  return safeTry(async function* () {
    const { type, details, action: parsed } = yield* parsePreviewRequest(deps, input);
    const { sealed, prepared } = yield* openPreview(deps, input.preview, options.tenant.id);
    yield* checkPreviewMatches(sealed, { account: input.account, type, details });
    if (deps.clock.now().getTime() > sealed.x) {
      return err(domainError('PREVIEW_EXPIRED', 'preview has expired; request a new preview'));
    }
    const height = yield* deps.chain.getBlockHeight();
    if (height > prepared.lastValidBlockHeight) {
      return err(
        domainError('PREVIEW_EXPIRED', "preview's blockhash has expired on chain; request a new preview"),
      );
    }
    const action = yield* authorizeAction(deps, parsed, options.tenant);
    const plan = planAction(deps, action);
    const signed = yield* signPrepared(deps, prepared);
    const recorded = yield* recordPlan(deps, plan, prepared, signed, options);
    return ok(outcomeOf(action, recorded, 'signed from preview'));
  });
}
