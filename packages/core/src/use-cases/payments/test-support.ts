import type { PublicKey } from '../../domain/public-key.js';
import { DEFAULT_TENANT_ACCESS } from '../../domain/tenant.js';
import { createTestDeps, type TestDeps } from '../../testing/index.js';

// Fixtures shared by the payments use-cases' tests.

/** Acting for the default tenant, as a single-tenant caller does. */
export const AS_DEFAULT = { tenant: DEFAULT_TENANT_ACCESS };

export type PaymentsTest = TestDeps & { sender: PublicKey };

/** Fake ports, and a managed account of the default tenant holding 10 SOL and 1,000 USDC. */
export async function setup(): Promise<PaymentsTest> {
  const t = await createTestDeps();
  const sender = (await t.keystore.create())._unsafeUnwrap();
  t.chain.credit(sender, t.chain.currencies.native, 10_000_000_000n);
  t.chain.credit(sender, t.chain.currencies.stable, 1_000_000_000n);
  return { ...t, sender };
}

/** What `who` holds of the currency `code`, in base units. */
export const balance = async (t: TestDeps, who: PublicKey, code: string) =>
  (await t.chain.getBalance(who, t.chain.currencies.byCode(code)!))._unsafeUnwrap();
