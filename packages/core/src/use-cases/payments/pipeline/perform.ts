import { err, errAsync, ok, type Result, ResultAsync } from 'neverthrow';
import type { DomainError } from '../../../errors.js';
import type { ActionDeps } from '../deps.js';
import { authorizeAction } from './authorize.js';
import { parseAction } from './parse.js';
import { type ActionOptions, type ActionOutcome, type ActionType, outcomeOf } from './payment.js';
import { planAction } from './plan.js';
import { prepareIntent } from './prepare.js';
import { recordPlan } from './record.js';
import { signPrepared } from './sign.js';

/**
 * The direct (non-preview) path of every action, one step per module and in this order:
 * parse, authorize, plan, prepare (price and simulate), sign, record and send.
 *
 * An async function that awaits each step's Result, not `safeTry`: every donation runs this, and
 * each `yield*` of a ResultAsync in `safeTry` is an async generator of its own, garbage that
 * outlives a scavenge whenever a request waits.
 */
export function performAction(
  deps: ActionDeps,
  type: ActionType,
  raw: Record<string, unknown>,
  options: ActionOptions,
): ResultAsync<ActionOutcome, DomainError> {
  const parsed = parseAction(deps, type, raw);
  if (parsed.isErr()) return errAsync(parsed.error);
  return new ResultAsync(
    (async (): Promise<Result<ActionOutcome, DomainError>> => {
      const action = await authorizeAction(deps, parsed.value, options.tenant);
      if (action.isErr()) return err(action.error);
      const plan = planAction(deps, action.value);
      const prepared = await prepareIntent(deps, plan.intent, action.value.priority);
      if (prepared.isErr()) return err(prepared.error);
      const signed = await signPrepared(deps, prepared.value);
      if (signed.isErr()) return err(signed.error);
      const recorded = await recordPlan(deps, plan, prepared.value, signed.value, options);
      if (recorded.isErr()) return err(recorded.error);
      return ok(outcomeOf(action.value, recorded.value));
    })(),
  );
}
