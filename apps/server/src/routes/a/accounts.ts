import { createRoute, z } from '@hono/zod-openapi';
import {
  airdrop,
  createAccount,
  type EscrowRecord,
  getBalances,
  getEscrow,
  getNft,
  settleEscrow,
} from '@token-actions/core';
import { DomainHttpError } from '../../http/errors.js';
import { unwrap } from '../../http/respond.js';
import type { InterfaceAApp } from '../../interface-a/render.js';
import type { AppServices } from '../../services.js';
import {
  AccountCreateRequest,
  AccountCreateResponse,
  AccountResponse,
  AirdropRequest,
  AirdropResponse,
  EscrowResponse,
  NftResponse,
} from '../schemas.js';
import {
  bodylessWriteErrors,
  IdempotencyHeaders,
  jsonBody,
  notFound,
  ok,
  readErrors,
  security,
  writeErrors,
} from './common.js';

const pathParam = <K extends string>(name: K, description: string, example: string) =>
  z.object({
    [name]: z.string().openapi({ param: { name, in: 'path' }, description, example }),
  } as Record<K, z.ZodString>);

const KEY_EXAMPLE = '9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin';
const accountParam = pathParam('publicKey', 'The account (base58, 32 bytes)', KEY_EXAMPLE);
const escrowParam = pathParam('id', 'The escrow id, from the payment that funded it', 'esc_4f1c9a2b');

function escrowJson(e: EscrowRecord) {
  return {
    id: e.id,
    purpose: e.purpose,
    payer: e.payer,
    beneficiary: e.beneficiary,
    currency: e.currency,
    amount: e.amount.toString(),
    status: e.status,
    fundingTransactionId: e.fundingTransactionId,
    ...(e.settlementTransactionId ? { settlementTransactionId: e.settlementTransactionId } : {}),
    expiresAt: e.expiresAt.toISOString(),
    expiryAction: e.expiryAction,
  };
}

export function registerAccountRoutes(app: InterfaceAApp, services: AppServices) {
  const { deps } = services;

  app.openapi(
    createRoute({
      method: 'post',
      path: '/v1/api/accounts',
      operationId: 'createAccount',
      tags: ['Account'],
      summary: 'Create a managed (custodial) account',
      security,
      request: {
        headers: IdempotencyHeaders,
        body: { required: false, content: { 'application/json': { schema: AccountCreateRequest } } },
      },
      responses: { ...ok('Created', AccountCreateResponse), ...bodylessWriteErrors },
    }),
    async (c) => {
      const body = (c.req.valid('json') ?? {}) as { label?: string };
      const out = await unwrap(
        createAccount(deps, body.label ? { label: body.label } : {}, c.get('tenant').id),
      );
      return c.json({ publicKey: out.publicKey as string }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/v1/api/accounts/{publicKey}',
      operationId: 'getAccount',
      tags: ['Account'],
      summary: 'Balances of an account in every supported currency',
      security,
      request: { params: accountParam },
      responses: { ...ok('Balances', AccountResponse), ...readErrors, ...notFound },
    }),
    async (c) => {
      const out = await unwrap(
        getBalances(deps, { publicKey: c.req.valid('param').publicKey, tenant: c.get('tenant').id }),
      );
      return c.json(out, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/v1/api/accounts/{publicKey}/airdrop',
      operationId: 'airdrop',
      tags: ['Account'],
      summary: 'Localnet only: credit an account with SOL, USDC or the project token',
      security,
      request: { params: accountParam, headers: IdempotencyHeaders, body: jsonBody(AirdropRequest) },
      responses: { ...ok('Credited', AirdropResponse), ...writeErrors, ...notFound },
    }),
    async (c) => {
      if (!services.isLocalnet) {
        throw new DomainHttpError({ code: 'NOT_SUPPORTED', message: 'airdrops exist only on the localnet' });
      }
      const out = await unwrap(
        airdrop(deps, {
          publicKey: c.req.valid('param').publicKey,
          tenant: c.get('tenant').id,
          ...c.req.valid('json'),
        }),
      );
      return c.json({ message: out.message, transactionId: out.transactionId as string }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/v1/api/nfts/{mint}',
      operationId: 'getNft',
      tags: ['NFT'],
      summary: 'Read an NFT mint and its metadata back from the chain',
      security,
      request: { params: pathParam('mint', 'The NFT mint (base58, 32 bytes)', KEY_EXAMPLE) },
      responses: { ...ok('NFT', NftResponse), ...readErrors, ...notFound },
    }),
    async (c) => {
      const nft = await unwrap(getNft(deps, { mint: c.req.valid('param').mint, tenant: c.get('tenant').id }));
      return c.json(
        {
          mint: nft.mint,
          name: nft.name,
          symbol: nft.symbol,
          uri: nft.uri,
          supply: nft.supply.toString(),
          decimals: nft.decimals,
          mintAuthority: nft.mintAuthority ?? null,
          updateAuthority: nft.updateAuthority ?? null,
          owner: nft.owner ?? null,
        },
        200,
      );
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/v1/api/escrows/{id}',
      operationId: 'getEscrow',
      tags: ['Escrow'],
      summary: 'An escrow and its status',
      security,
      request: { params: escrowParam },
      responses: { ...ok('Escrow', EscrowResponse), ...readErrors, ...notFound },
    }),
    async (c) =>
      c.json(
        escrowJson(
          await unwrap(getEscrow(deps, { id: c.req.valid('param').id, tenant: c.get('tenant').id })),
        ),
        200,
      ),
  );

  for (const settlement of ['release', 'refund'] as const) {
    app.openapi(
      createRoute({
        method: 'post',
        path: `/v1/api/escrows/{id}/${settlement}`,
        operationId: `${settlement}Escrow`,
        tags: ['Escrow'],
        summary:
          settlement === 'release'
            ? 'Pay escrowed funds to the beneficiary'
            : 'Return escrowed funds to the payer',
        security,
        request: { params: escrowParam, headers: IdempotencyHeaders },
        responses: { ...ok('Settled', EscrowResponse), ...bodylessWriteErrors, ...notFound },
      }),
      async (c) => {
        const out = await unwrap(
          settleEscrow(deps, { id: c.req.valid('param').id, settlement, tenant: c.get('tenant').id }),
        );
        return c.json(
          { ...escrowJson(out.escrow), message: out.message, transactionId: out.transactionId },
          200,
        );
      },
    );
  }
}
