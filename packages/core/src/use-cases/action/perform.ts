import { ok, type ResultAsync, safeTry } from 'neverthrow';
import type { DomainError } from '../../errors.js';
import type { ActionDeps } from '../deps.js';
import { type ActionOptions, type ActionOutcome, type ActionType, outcomeOf } from './action.js';
import { authorizeAction } from './authorize.js';
import { parseAction } from './parse.js';
import { planAction } from './plan.js';
import { prepareIntent } from './prepare.js';
import { recordPlan } from './record.js';
import { signPrepared } from './sign.js';

/**
 * The direct (non-preview) path of every action, one step per module and in this order:
 * parse, authorize, plan, prepare (price and simulate), sign, record and send.
 */
export function performAction(
  deps: ActionDeps,
  type: ActionType,
  raw: Record<string, unknown>,
  options: ActionOptions,
): ResultAsync<ActionOutcome, DomainError> {
  return safeTry(async function* () {
    const parsed = yield* parseAction(deps, type, raw);
    const action = yield* authorizeAction(deps, parsed, options.tenant);
    const plan = planAction(deps, action);
    const prepared = yield* prepareIntent(deps, plan.intent, action.priority);
    const signed = yield* signPrepared(deps, prepared);
    const recorded = yield* recordPlan(deps, plan, prepared, signed, options);
    return ok(outcomeOf(action, recorded));
  });
}
