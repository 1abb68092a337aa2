// Ceiling of the chain: pre-signed SOL transfers sent in a loop, in-process, through LiteSVM's
// public API (`sendTransaction`), the same litesvm build the service uses. Building and signing
// happen before the clock starts; what is timed is the send loop. Prints one JSON line.
//
//   node bench/ceiling-litesvm.mjs [count]
import { transfersFrom } from './lib/transfers.mjs';
import { importFrom } from './resolve.mjs';

// Resolve the chain libraries from the localnet package (which runs LiteSVM): the versions the service runs.
const load = (name) => importFrom('packages/localnet', name);
const { LiteSVM, TransactionMetadata } = await load('litesvm');
const { getTransactionDecoder } = await load('@solana/kit');
const web3 = await load('@solana/web3.js');
const { Keypair, Message, SystemProgram, Transaction } = web3.default ?? web3;

const count = Number(process.argv[2] ?? 40_000);
const svm = new LiteSVM().withLamports(1n << 62n).withTransactionHistory(BigInt(count + 100));
const payer = Keypair.generate();
const treasury = Keypair.generate().publicKey;
const funded = svm.airdrop(payer.publicKey.toBase58(), 1_000_000_000_000_000n);
if (!(funded instanceof TransactionMetadata)) throw new Error(`airdrop failed: ${funded?.toString()}`);
// The recipient exists (rent-exempt) before the loop, as the service's treasury does.
svm.airdrop(treasury.toBase58(), 1_000_000_000n);

// One compiled transfer message; only its lamports (the last 8 bytes of the message, the
// instruction data) differ between transfers, so every signature is distinct.
const template = new Transaction({ feePayer: payer.publicKey, recentBlockhash: svm.latestBlockhash() })
  .add(SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: treasury, lamports: 1 }))
  .compileMessage()
  .serialize();
const transfer = transfersFrom(payer.secretKey, template);

const decoder = getTransactionDecoder();
const t0 = performance.now();
const transactions = [];
for (let i = 0; i < count; i++) {
  transactions.push(decoder.decode(transfer(i + 1)));
}
const prepareMs = performance.now() - t0;

// Sanity: the patched message is still a transfer of the intended amount.
const check = Message.from(Buffer.from(template));
if (check.instructions.length !== 1) throw new Error('unexpected template');

const latencies = new Float64Array(count);
let landed = 0;
const start = performance.now();
for (let i = 0; i < count; i++) {
  const s = performance.now();
  const result = svm.sendTransaction(transactions[i]);
  latencies[i] = performance.now() - s;
  if (result instanceof TransactionMetadata) landed++;
  else if (i === 0) throw new Error(`the first transfer failed: ${result.err?.() ?? result.toString()}`);
}
const seconds = (performance.now() - start) / 1000;
latencies.sort();
const pct = (p) => latencies[Math.min(count - 1, Math.floor((p / 100) * count))];
const balance = svm.getBalance(treasury.toBase58());
const expected = 1_000_000_000n + (BigInt(count) * BigInt(count + 1)) / 2n;

console.log(
  JSON.stringify({
    count,
    landed,
    reqPerSec: count / seconds,
    p50Ms: pct(50),
    p99Ms: pct(99),
    prepareMsPerTx: prepareMs / count,
    treasuryBalanceOk: balance === expected,
  }),
);
