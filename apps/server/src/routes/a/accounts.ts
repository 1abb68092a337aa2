import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
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
import type { AppServices } from '../../services.js';
import {
  AccountCreateRequest,
  AccountResponse,
  AirdropRequest,
  AirdropResponse,
  EscrowResponse,
  NftResponse,
} from '../schemas.js';
import { errorResponses, jsonBody, notFound, security } from './common.js';

const pathParam = (name: string) => z.object({ [name]: z.string().openapi({ param: { name, in: 'path' } }) });

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

export function registerAccountRoutes(app: OpenAPIHono, services: AppServices) {
  const { deps } = services;

  app.openapi(
    createRoute({
      method: 'post',
      path: '/v1/api/accounts',
      tags: ['Account'],
      summary: 'Create a managed (custodial) account',
      security,
      request: {
        body: { required: false, content: { 'application/json': { schema: AccountCreateRequest } } },
      },
      responses: {
        200: {
          description: 'Created',
          content: { 'application/json': { schema: z.object({ publicKey: z.string() }) } },
        },
        ...errorResponses,
      },
    }),
    async (c) => {
      const body = (c.req.valid('json') ?? {}) as { label?: string };
      const out = await unwrap(createAccount(deps, body.label ? { label: body.label } : {}));
      return c.json({ publicKey: out.publicKey as string }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/v1/api/accounts/{publicKey}',
      tags: ['Account'],
      summary: 'Balances of an account in every supported currency',
      security,
      request: { params: pathParam('publicKey') },
      responses: {
        200: { description: 'Balances', content: { 'application/json': { schema: AccountResponse } } },
        ...errorResponses,
      },
    }),
    async (c) => {
      const out = await unwrap(getBalances(deps, { publicKey: c.req.valid('param').publicKey }));
      return c.json(out, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/v1/api/accounts/{publicKey}/airdrop',
      tags: ['Account'],
      summary: 'Localnet only: credit an account with SOL, USDC or the project token',
      security,
      request: { params: pathParam('publicKey'), body: jsonBody(AirdropRequest) },
      responses: {
        200: { description: 'Credited', content: { 'application/json': { schema: AirdropResponse } } },
        ...errorResponses,
      },
    }),
    async (c) => {
      if (!services.isLocalnet) {
        throw new DomainHttpError({ code: 'NOT_SUPPORTED', message: 'airdrops exist only on the localnet' });
      }
      const out = await unwrap(
        airdrop(deps, { publicKey: c.req.valid('param').publicKey, ...c.req.valid('json') }),
      );
      return c.json({ message: out.message, transactionId: out.transactionId as string }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/v1/api/nfts/{mint}',
      tags: ['NFT'],
      summary: 'Read an NFT mint and its metadata back from the chain',
      security,
      request: { params: pathParam('mint') },
      responses: {
        200: { description: 'NFT', content: { 'application/json': { schema: NftResponse } } },
        ...errorResponses,
        ...notFound,
      },
    }),
    async (c) => {
      const nft = await unwrap(getNft(deps, { mint: c.req.valid('param').mint }));
      if (!nft) throw new DomainHttpError({ code: 'NFT_NOT_FOUND', message: 'no NFT mint at that address' });
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
      tags: ['Escrow'],
      summary: 'An escrow and its status',
      security,
      request: { params: pathParam('id') },
      responses: {
        200: { description: 'Escrow', content: { 'application/json': { schema: EscrowResponse } } },
        ...errorResponses,
        ...notFound,
      },
    }),
    async (c) => c.json(escrowJson(await unwrap(getEscrow(deps, { id: c.req.valid('param').id }))), 200),
  );

  for (const settlement of ['release', 'refund'] as const) {
    app.openapi(
      createRoute({
        method: 'post',
        path: `/v1/api/escrows/{id}/${settlement}`,
        tags: ['Escrow'],
        summary:
          settlement === 'release'
            ? 'Pay escrowed funds to the beneficiary'
            : 'Return escrowed funds to the payer',
        security,
        request: { params: pathParam('id') },
        responses: {
          200: { description: 'Settled', content: { 'application/json': { schema: EscrowResponse } } },
          ...errorResponses,
          ...notFound,
        },
      }),
      async (c) => {
        const out = await unwrap(settleEscrow(deps, { id: c.req.valid('param').id, settlement }));
        return c.json(
          { ...escrowJson(out.escrow), message: out.message, transactionId: out.transactionId },
          200,
        );
      },
    );
  }
}
