import type { PublicKey } from '../domain/public-key.js';
import { type ActionDeps, DEFAULT_POLICIES, type Policies } from '../use-cases/payments/deps.js';
import { createFakeChain, type FakeChain } from './chain.js';
import { createFixedClock, createSequentialIds, createTestMac, type FixedClock } from './clock.js';
import { createFakeFeeOracle } from './fee-oracle.js';
import { createInMemoryKeystore, type InMemoryKeystore } from './keystore.js';
import { createInMemoryStore, type InMemoryStore } from './store.js';

export interface TestDeps {
  readonly deps: ActionDeps;
  readonly chain: FakeChain;
  readonly store: InMemoryStore;
  readonly keystore: InMemoryKeystore;
  readonly clock: FixedClock;
}

/**
 * Every port of the payments use-cases as an in-memory fake, wired like the real composition root:
 * service accounts in the keystore, the treasury funded so it can pay fees.
 */
export async function createTestDeps(options: { policies?: Partial<Policies> } = {}): Promise<TestDeps> {
  const clock = createFixedClock(new Date());
  const chain = createFakeChain();
  const store = createInMemoryStore({ clock });
  const keystore = createInMemoryKeystore();
  const named = async (name: string): Promise<PublicKey> => {
    const r = await keystore.named(name);
    if (r.isErr()) throw new Error(r.error.message);
    return r.value;
  };
  const accounts = {
    treasury: await named('treasury'),
    escrowVault: await named('escrow-vault'),
    mintAuthority: await named('mint-authority'),
  };
  chain.fund(accounts.treasury, 1_000_000_000_000n);
  const deps: ActionDeps = {
    chain,
    keystore,
    store,
    fees: createFakeFeeOracle(),
    clock,
    ids: createSequentialIds(),
    mac: createTestMac(),
    currencies: chain.currencies,
    accounts,
    policies: { ...DEFAULT_POLICIES, ...options.policies },
  };
  return { deps, chain, store, keystore, clock };
}
