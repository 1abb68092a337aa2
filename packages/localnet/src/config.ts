import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { loadOrCreateSeed } from './persistence/seed.js';

export interface LocalnetConfig {
  /** 32 bytes from which the localnet derives its own keys (stablecoin mint, project mint, their
   * mint authority), so its addresses are the same after a restart. Random when absent. */
  readonly seed?: Uint8Array;
  /** Ticker of the project token; default PROJ. */
  readonly projectTicker?: string;
  /** Milliseconds between slots; default 400. 0 turns the timer off (advance with `tick`). */
  readonly slotIntervalMs?: number;
  /** Slots after landing until a transaction counts as confirmed; default 1. */
  readonly confirmationDepthSlots?: number;
  /** Slots after landing until a transaction counts as finalized; default 32. */
  readonly finalityDepthSlots?: number;
  /** Block heights a blockhash stays valid after it is issued; default 150. */
  readonly blockhashValiditySlots?: number;
  /** The URL the localnet says it is reached at (until `setRpcUrl`); default http://127.0.0.1:8899. */
  readonly rpcUrl?: string;
  /** Landed transactions remembered for statuses and dedupe; default 100,000. Older ones are
   * forgotten only once their blockhash has expired, so none can execute twice. */
  readonly historySize?: number;
  /** Keeps the chain under `<dataDir>/localnet/`: every landed transaction is on disk before it is
   * acknowledged, and a localnet opened on the same directory (after a restart, even `kill -9`)
   * resumes with every account, transaction status and issued blockhash. Without it the chain is
   * in memory. */
  readonly dataDir?: string;
  /** Journal size from which the next start compacts it into a snapshot; default 64 MiB. */
  readonly compactJournalBytes?: number;
}

/** The configuration, checked, with defaults applied. */
export interface Settings {
  readonly seed: Uint8Array;
  readonly projectTicker: string;
  readonly slotIntervalMs: number;
  readonly confirmationDepth: bigint;
  readonly finalityDepth: bigint;
  readonly validity: bigint;
  readonly historySize: number;
  readonly compactJournalBytes: number;
  readonly stateDir: string | undefined;
  readonly rpcUrl: string;
}

export const DEFAULTS = {
  projectTicker: 'PROJ',
  slotIntervalMs: 400,
  confirmationDepthSlots: 1,
  finalityDepthSlots: 32,
  blockhashValiditySlots: 150,
  rpcUrl: 'http://127.0.0.1:8899',
  historySize: 100_000,
  compactJournalBytes: 64 * 1024 * 1024,
} as const;

function integer(value: number | undefined, fallback: number, name: string, allowZero = false): number {
  const chosen = value ?? fallback;
  if (!Number.isSafeInteger(chosen) || chosen < 0 || (chosen === 0 && !allowZero)) {
    throw new Error(
      `${name} must be a ${allowZero ? 'non-negative' : 'positive'} integer, got ${String(value)}`,
    );
  }
  return chosen;
}

/** Throws on a bad value, naming it; reads (or makes) the seed kept in the state directory. */
export function resolveSettings(config: LocalnetConfig): Settings {
  const slotIntervalMs = integer(config.slotIntervalMs, DEFAULTS.slotIntervalMs, 'slotIntervalMs', true);
  const confirmationDepth = BigInt(
    integer(config.confirmationDepthSlots, DEFAULTS.confirmationDepthSlots, 'confirmationDepthSlots', true),
  );
  const finalityDepth = BigInt(
    integer(config.finalityDepthSlots, DEFAULTS.finalityDepthSlots, 'finalityDepthSlots', true),
  );
  if (finalityDepth < confirmationDepth)
    throw new Error('finalityDepthSlots must be at least confirmationDepthSlots');
  const validity = BigInt(
    integer(config.blockhashValiditySlots, DEFAULTS.blockhashValiditySlots, 'blockhashValiditySlots'),
  );
  const historySize = integer(config.historySize, DEFAULTS.historySize, 'historySize');
  const compactJournalBytes = integer(
    config.compactJournalBytes,
    DEFAULTS.compactJournalBytes,
    'compactJournalBytes',
  );
  const stateDir = config.dataDir === undefined ? undefined : join(config.dataDir, 'localnet');
  const seed = config.seed ?? (stateDir ? loadOrCreateSeed(stateDir) : new Uint8Array(randomBytes(32)));
  if (seed.length !== 32) throw new Error('seed must be 32 bytes');
  return {
    seed,
    projectTicker: (config.projectTicker ?? DEFAULTS.projectTicker).toUpperCase(),
    slotIntervalMs,
    confirmationDepth,
    finalityDepth,
    validity,
    historySize,
    compactJournalBytes,
    stateDir,
    rpcUrl: config.rpcUrl ?? DEFAULTS.rpcUrl,
  };
}
