import { err, ok, type Result } from 'neverthrow';
import { type DomainError, domainError } from '../errors.js';
import type { ActionDescriptor } from './catalog.js';

/** What a POST carries once read: the wallet and the fields of the use-case action. */
export interface ActionRequest {
  readonly account: unknown;
  readonly fields: Record<string, unknown>;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A parameter value from `data` (spec v2.2+: `string | string[]`); every parameter here is single. */
function single(name: string, value: unknown): Result<string | undefined, DomainError> {
  if (value === undefined) return ok(undefined);
  if (typeof value === 'string') return ok(value);
  if (Array.isArray(value) && value.length === 1 && typeof value[0] === 'string') return ok(value[0]);
  return err(domainError('INVALID_INPUT', `${name} must be a single string value`));
}

function booleanOf(value: string | undefined): Result<boolean | undefined, DomainError> {
  if (value === undefined || value === '') return ok(undefined);
  if (value === 'true' || value === 'false') return ok(value === 'true');
  return err(domainError('INVALID_INPUT', 'useEscrow must be "true" or "false"'));
}

/**
 * Reads a POST (spec "POST Request"): `{account, data?}` in the body, and the parameter values the
 * client put in the href's query string (`{name}` placeholders) or in `data`, `data` winning.
 * Values the action does not declare are ignored (links may carry tracking parameters); required
 * ones must be present. Every rule about the values themselves stays in the use-case's parser.
 */
export function readActionRequest(
  descriptor: ActionDescriptor,
  query: Readonly<Record<string, string | undefined>>,
  body: unknown,
): Result<ActionRequest, DomainError> {
  if (!isRecord(body))
    return err(domainError('INVALID_INPUT', 'the body must be a JSON object with account'));
  if (body.account === undefined) return err(domainError('INVALID_PUBLIC_KEY', 'account is required'));
  const data = body.data === undefined ? {} : body.data;
  if (!isRecord(data)) return err(domainError('INVALID_INPUT', 'data must be an object of parameter values'));

  const values: Record<string, string> = {};
  for (const parameter of descriptor.parameters) {
    const fromData = single(parameter.name, data[parameter.name]);
    if (fromData.isErr()) return err(fromData.error);
    const value = fromData.value ?? query[parameter.name];
    if (value !== undefined && value !== '') values[parameter.name] = value;
    else if (parameter.required) {
      return err(domainError('INVALID_INPUT', `${parameter.name} is required (${parameter.label})`));
    }
  }

  const escrow = booleanOf(values.useEscrow);
  if (escrow.isErr()) return err(escrow.error);
  const { useEscrow: _, currency, priority, ...rest } = values;
  return ok({
    account: body.account,
    fields: {
      ...rest,
      // A select's value is the ticker; a hand-edited link may carry it in lower case, as paths do.
      currency: descriptor.currency ?? currency?.toUpperCase(),
      priority: priority ?? 'Medium',
      ...(escrow.value === undefined ? {} : { useEscrow: escrow.value }),
    },
  });
}
