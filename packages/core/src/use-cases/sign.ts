import { err, ok, type ResultAsync, safeTry } from 'neverthrow';
import { type DomainError, domainError } from '../errors.js';
import { authorizeAction, describeAction, executePlan, planAction } from './actions.js';
import type { ActionDeps } from './deps.js';
import type { ActionOptions, ActionOutcome } from './perform.js';
import { actionFromRequest, checkPreviewMatches, openPreview, type PreviewInput } from './preview.js';

export interface SignInput extends PreviewInput {
  readonly preview: unknown;
}

/**
 * Signs and sends exactly the transaction sealed in a preview. Ed25519 signatures are
 * deterministic, so signing the same preview again yields the same transaction id; the outbox
 * insert and the chain both dedupe by it, so the transfer happens once.
 */
export function sign(
  deps: ActionDeps,
  input: SignInput,
  options: ActionOptions = {},
): ResultAsync<ActionOutcome, DomainError> {
  return safeTry(async function* () {
    const { type, details, action: parsed } = yield* actionFromRequest(deps, input);
    const { sealed, prepared } = yield* openPreview(deps, input.preview);
    yield* checkPreviewMatches(sealed, input, type, details);
    if (deps.clock.now().getTime() > sealed.x) {
      return err(domainError('PREVIEW_EXPIRED', 'preview has expired; request a new preview'));
    }
    const height = yield* deps.chain.getBlockHeight();
    if (height > prepared.lastValidBlockHeight) {
      return err(
        domainError('PREVIEW_EXPIRED', "preview's blockhash has expired on chain; request a new preview"),
      );
    }
    const action = yield* authorizeAction(deps, parsed);
    const plan = planAction(deps, action);
    const { record, escrow } = yield* executePlan(deps, plan, prepared, options);
    return ok({
      message: `${describeAction(action)} (signed from preview)`,
      transactionId: record.id,
      action,
      feeLamports: record.feeLamports,
      ...(escrow ? { escrowId: escrow.id } : {}),
      ...(record.mint ? { mint: record.mint } : {}),
    });
  });
}
