import { TOKEN_2022_PROGRAM_ID, TOKEN_PROGRAM_ID } from '@solana/spl-token';
import { Connection, PublicKey as Web3PublicKey } from '@solana/web3.js';
import { Currencies, type Currency, isPublicKey, type PublicKey } from '@token-actions/core';
import { callJsonRpc, JsonRpcError } from './json-rpc.js';

const TOKEN_PROGRAMS = new Set([TOKEN_PROGRAM_ID.toBase58(), TOKEN_2022_PROGRAM_ID.toBase58()]);

export interface DiscoverCurrenciesOptions {
  readonly rpcUrl: string;
  /** Mints from config (e.g. USDC_MINT / PROJECT_MINT); when absent, asked of the localnet. */
  readonly stableMint?: string;
  readonly projectMint?: string;
  /** Ticker of the project token; default: the localnet's, else PROJ. */
  readonly projectTicker?: string;
  readonly fetch?: typeof fetch;
}

export interface DiscoveredCurrencies {
  readonly currencies: Currencies;
  /** Set when the endpoint is a token-actions localnet (it answered `localnet_getMints`). */
  readonly localnet?: { readonly mintAuthority: string; readonly genesisHash: string };
}

interface LocalnetMints {
  mintAuthority: string;
  genesisHash: string;
  currencies: { code: string; kind: string; decimals: number; mint?: string; tokenProgram?: string }[];
}

/**
 * The currencies of a cluster: the given mints, read on chain for their decimals and token program;
 * or, with no mints given, those of a token-actions localnet (custom method `localnet_getMints`).
 */
export async function discoverRpcCurrencies(
  options: DiscoverCurrenciesOptions,
): Promise<DiscoveredCurrencies> {
  const fetchFn = options.fetch ?? globalThis.fetch;
  const native: Currency = { code: 'SOL', kind: 'native', decimals: 9 };
  if (options.stableMint === undefined || options.projectMint === undefined) {
    if (options.stableMint !== undefined || options.projectMint !== undefined) {
      throw new Error('set both USDC_MINT and PROJECT_MINT, or neither (to use the localnet mints)');
    }
    let answer: LocalnetMints;
    try {
      answer = (await callJsonRpc(fetchFn, options.rpcUrl, 'localnet_getMints', [])) as LocalnetMints;
    } catch (cause) {
      if (cause instanceof JsonRpcError && cause.code === -32601) {
        throw new Error(`${options.rpcUrl} is not a token-actions localnet: set USDC_MINT and PROJECT_MINT`);
      }
      throw new Error(`cannot reach ${options.rpcUrl}: ${(cause as Error).message}`);
    }
    const stable = answer.currencies.find((c) => c.kind === 'stable');
    const project = answer.currencies.find((c) => c.kind === 'project');
    if (!stable?.mint || !project?.mint)
      throw new Error(`${options.rpcUrl} reported no stablecoin or project mint`);
    const toCurrency = (c: typeof stable, code: string, kind: 'stable' | 'project'): Currency => ({
      code,
      kind,
      decimals: c.decimals,
      mint: c.mint as PublicKey,
      ...(c.tokenProgram ? { tokenProgram: c.tokenProgram as PublicKey } : {}),
    });
    return {
      currencies: new Currencies(
        native,
        toCurrency(stable, stable.code, 'stable'),
        toCurrency(project, options.projectTicker ?? project.code, 'project'),
      ),
      localnet: { mintAuthority: answer.mintAuthority, genesisHash: answer.genesisHash },
    };
  }

  const connection = new Connection(options.rpcUrl, {
    commitment: 'confirmed',
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  const mints = [options.stableMint, options.projectMint];
  for (const mint of mints) if (!isPublicKey(mint)) throw new Error(`${mint} is not a base58 public key`);
  const accounts = await connection.getMultipleAccountsInfo(mints.map((mint) => new Web3PublicKey(mint)));
  const read = (index: number, code: string, kind: 'stable' | 'project'): Currency => {
    const account = accounts[index];
    const mint = mints[index]!;
    if (!account || !TOKEN_PROGRAMS.has(account.owner.toBase58()) || account.data.length < 82) {
      throw new Error(`${mint} is not a token mint on ${options.rpcUrl}`);
    }
    return {
      code,
      kind,
      decimals: account.data[44]!,
      mint: mint as PublicKey,
      tokenProgram: account.owner.toBase58() as PublicKey,
    };
  };
  return {
    currencies: new Currencies(
      native,
      read(0, 'USDC', 'stable'),
      read(1, (options.projectTicker ?? 'PROJ').toUpperCase(), 'project'),
    ),
  };
}
