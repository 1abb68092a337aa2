import { ok, type ResultAsync, safeTry } from 'neverthrow';
import type { DomainError } from '../errors.js';
import {
  type Action,
  type ActionType,
  authorizeAction,
  describeAction,
  executePlan,
  parseAction,
  planAction,
} from './actions.js';
import type { ActionDeps } from './deps.js';
import { prepareIntent } from './submit.js';

export interface ActionOptions {
  /** The request's idempotency key, scoped to the caller: one transaction per key, even across crashes. */
  readonly requestKey?: string;
}

export interface ActionOutcome {
  readonly message: string;
  readonly transactionId: string;
  readonly action: Action;
  readonly escrowId?: string;
  readonly mint?: string;
  readonly feeLamports: bigint;
}

/** Validate, authorize, build, sign, record and send one action: the direct (non-preview) path. */
export function performAction(
  deps: ActionDeps,
  type: ActionType,
  raw: Record<string, unknown>,
  options: ActionOptions = {},
): ResultAsync<ActionOutcome, DomainError> {
  return safeTry(async function* () {
    const parsed = yield* parseAction(deps, type, raw);
    const action = yield* authorizeAction(deps, parsed);
    const plan = planAction(deps, action);
    const prepared = yield* prepareIntent(deps, plan.intent, action.priority);
    const { record, escrow } = yield* executePlan(deps, plan, prepared, options);
    return ok({
      message: describeAction(action),
      transactionId: record.id,
      action,
      feeLamports: record.feeLamports,
      ...(escrow ? { escrowId: escrow.id } : {}),
      ...(record.mint ? { mint: record.mint } : {}),
    });
  });
}
