import {
  createLocalnet,
  type Localnet,
  type LocalnetConfig,
  type LocalnetRpc,
  startLocalnetRpc,
} from '../../src/index.js';

/** A JSON-RPC response as the tests read it, field by field. */
// biome-ignore lint/suspicious/noExplicitAny: results of every method go through this one type.
export type RpcAnswer = { result?: any; error?: { code: number; message: string } };

/** A localnet with its JSON-RPC and PubSub servers on free ports, as `pnpm localnet` serves them. */
export interface Served {
  readonly localnet: Localnet;
  readonly rpc: LocalnetRpc;
  /** A JSON-RPC call over HTTP; the whole response (result or error). */
  call(method: string, params?: unknown[]): Promise<RpcAnswer>;
  close(): Promise<void>;
}

export async function serve(config: LocalnetConfig = {}): Promise<Served> {
  const localnet = await createLocalnet(config);
  const rpc = await startLocalnetRpc(localnet, { port: 0 });
  localnet.setRpcUrl(rpc.url, rpc.wsUrl);
  return {
    localnet,
    rpc,
    call: async (method, params = []) => {
      const response = await fetch(rpc.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
      });
      return (await response.json()) as RpcAnswer;
    },
    close: async () => {
      await rpc.close();
      localnet.close();
    },
  };
}

/** The localnet's own mints by ticker, as `localnet_getMints` reports them. */
export async function mintsOf(served: Served): Promise<Record<string, string>> {
  const { result } = await served.call('localnet_getMints');
  return Object.fromEntries(
    (result.currencies as { code: string; mint?: string }[])
      .filter((currency) => currency.mint)
      .map((currency) => [currency.code, currency.mint!]),
  );
}
