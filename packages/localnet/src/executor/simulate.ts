import { encodeBase58 } from '@token-actions/core';
import { FailedTransactionMetadata } from 'litesvm';
import { err, ok, type Result } from 'neverthrow';
import { issueBlockhash } from '../clock/advance.js';
import type { LocalnetState } from '../state.js';
import { logsOf, transactionErrorJson } from '../svm/failure.js';
import { keyBytes } from '../svm/svm.js';
import type { IssuedBlockhash, LocalAccount, SimulateOptions, Simulation, WireRejection } from '../types.js';
import { parseWire, rejection, signatureFailure } from './parse.js';

/** Accounts after a simulation, in the order asked; only the asked ones are read back (each read
 * copies the account out of the runtime). */
function postAccounts(
  state: LocalnetState,
  addresses: readonly string[],
  entries: readonly {
    address: Uint8Array;
    account(): { lamports(): bigint; owner(): Uint8Array; executable(): boolean; data(): Uint8Array };
  }[],
): (LocalAccount | null)[] {
  return addresses.map((address) => {
    const bytes = keyBytes(address);
    const entry = bytes && entries.find((candidate) => Buffer.from(candidate.address).equals(bytes));
    if (!entry) return state.svm.account(address, bytes);
    const account = entry.account();
    if (account.lamports() === 0n) return null;
    return {
      address,
      lamports: account.lamports(),
      owner: encodeBase58(account.owner()),
      executable: account.executable(),
      data: account.data(),
    };
  });
}

/** Runs wire bytes without changing state, as `simulateTransaction` does. */
export function simulateWire(
  state: LocalnetState,
  wire: Uint8Array,
  options: SimulateOptions = {},
): Result<Simulation, WireRejection> {
  const parsedResult = parseWire(wire);
  if (parsedResult.isErr()) return err(parsedResult.error);
  const parsed = parsedResult.value;
  const sigVerify = options.sigVerify === true;
  if (sigVerify && options.replaceRecentBlockhash) {
    return err(rejection('malformed', 'sigVerify may not be used with replaceRecentBlockhash'));
  }
  let replacement: IssuedBlockhash | undefined;
  if (options.replaceRecentBlockhash) {
    const current = issueBlockhash(state, true);
    replacement = {
      blockhash: current.blockhash,
      lastValidBlockHeight: state.clock.lastValidBlockHeight(current.issuedAt),
    };
  } else if (state.clock.validIssue(encodeBase58(parsed.message.recentBlockhash)) === undefined) {
    return ok({
      err: 'BlockhashNotFound',
      logs: [],
      unitsConsumed: 0n,
      accounts: options.accounts?.map(() => null),
    });
  }
  const result = state.svm.simulate(parsed, wire, sigVerify);
  if (result instanceof FailedTransactionMetadata) {
    const errJson = transactionErrorJson(result);
    if (sigVerify && errJson === 'SignatureFailure') return err(signatureFailure());
    return ok({
      err: errJson,
      logs: logsOf(result),
      unitsConsumed: result.meta().computeUnitsConsumed(),
      ...(options.accounts ? { accounts: options.accounts.map(() => null) } : {}),
      ...(replacement ? { replacementBlockhash: replacement } : {}),
    });
  }
  const meta = result.meta();
  const returned = meta.returnData();
  return ok({
    err: null,
    logs: meta.logs(),
    unitsConsumed: meta.computeUnitsConsumed(),
    returnData:
      returned.data().length > 0
        ? { programId: encodeBase58(returned.programId()), data: returned.data() }
        : null,
    ...(options.accounts ? { accounts: postAccounts(state, options.accounts, result.postAccounts()) } : {}),
    ...(replacement ? { replacementBlockhash: replacement } : {}),
  });
}
