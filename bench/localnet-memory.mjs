// Steady-state memory of the embedded localnet alone: SOL transfers sent through `sendWire` (in
// memory, no journal) in rounds of 20,000, the slot clock moved past the blockhash window after
// each round so the ledger forgets what it may, and RSS read after the collector and the native
// finalizers have run. The ledger keeps 100,000 transactions (its default), so RSS should level
// off once more than that have landed. Prints one line per round.
//
//   pnpm build && node --expose-gc bench/localnet-memory.mjs [rounds, default 12]
import { transfersFrom } from './lib/transfers.mjs';
import { importFrom } from './resolve.mjs';

if (typeof globalThis.gc !== 'function') throw new Error('run with node --expose-gc');
const load = (name) => importFrom('packages/localnet', name);
const web3 = await load('@solana/web3.js');
const { Keypair, SystemProgram, Transaction } = web3.default ?? web3;
const { createLocalnet } = await import(new URL('../packages/localnet/dist/index.js', import.meta.url).href);

const rounds = Number(process.argv[2] ?? 12);
const chain = await createLocalnet({ slotIntervalMs: 0 });
const payer = Keypair.generate();
const to = Keypair.generate().publicKey;
chain.fund(payer.publicKey.toBase58(), 1_000_000_000_000_000n);
chain.fund(to.toBase58(), 1_000_000_000n);
const MiB = 2 ** 20;
async function report(label) {
  // LiteSVM's results are freed by finalizers that run on the event loop after a collection.
  for (let i = 0; i < 3; i++) {
    globalThis.gc();
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const m = process.memoryUsage();
  console.log(
    `${label}: rss ${(m.rss / MiB).toFixed(1)} MiB, heap used ${(m.heapUsed / MiB).toFixed(1)} of ${(m.heapTotal / MiB).toFixed(1)} MiB`,
  );
}

await report('start');
let sent = 0;
for (let round = 0; round < rounds; round++) {
  const { blockhash } = await chain.latestBlockhash();
  const template = new Transaction({ feePayer: payer.publicKey, recentBlockhash: blockhash })
    .add(SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: to, lamports: 1 }))
    .compileMessage()
    .serialize();
  const transfer = transfersFrom(payer.secretKey, template);
  let pending = [];
  const settle = async () => {
    for (const result of await Promise.all(pending))
      if (result.isErr()) throw new Error(result.error.message);
    pending = [];
  };
  for (let i = 0; i < 20_000; i++) {
    sent++;
    pending.push(chain.sendWire(transfer(sent)));
    if (pending.length === 500) await settle();
  }
  await settle();
  chain.tick(160);
  await report(`after ${sent.toLocaleString('en-US')}`);
}
chain.close();
