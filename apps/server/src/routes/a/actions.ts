import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import {
  type ActionDeps,
  type ActionOptions,
  type CharityDonateInput,
  charityDonate,
  donate,
  type MerchantPayInput,
  merchantPay,
  mint,
} from '@token-actions/core';
import { actionOptions, unwrap } from '../../http/respond.js';
import type { AppServices } from '../../services.js';
import {
  CharityDonationRequest,
  DonateRequest,
  DonationResponse,
  MerchantPaymentRequest,
  MintNftRequest,
  MintNftResponse,
  PaymentResponse,
} from '../schemas.js';
import { errorResponses, jsonBody, security } from './common.js';

export function registerActionRoutes(app: OpenAPIHono, services: AppServices) {
  const { deps } = services;

  app.openapi(
    createRoute({
      method: 'post',
      path: '/v1/api/mint',
      tags: ['NFT'],
      summary: 'Mint a new NFT (Token-2022 with on-chain metadata)',
      security,
      request: { body: jsonBody(MintNftRequest) },
      responses: {
        200: { description: 'Minted', content: { 'application/json': { schema: MintNftResponse } } },
        ...errorResponses,
      },
    }),
    async (c) => {
      const out = await unwrap(mint(deps, c.req.valid('json'), actionOptions(c as never)));
      return c.json({ message: out.message, transactionId: out.transactionId, mint: out.mint ?? '' }, 200);
    },
  );

  for (const currency of deps.currencies.all) {
    const lower = currency.code.toLowerCase();
    app.openapi(
      createRoute({
        method: 'post',
        path: `/v1/api/donate/${lower}`,
        tags: ['Donation'],
        summary: `Donate ${currency.code} to the project treasury`,
        security,
        request: { body: jsonBody(DonateRequest) },
        responses: {
          200: {
            description: 'Donation submitted',
            content: { 'application/json': { schema: DonationResponse } },
          },
          ...errorResponses,
        },
      }),
      async (c) => {
        const out = await unwrap(
          donate(deps, { ...c.req.valid('json'), currency: currency.code }, actionOptions(c as never)),
        );
        return c.json({ message: out.message, transactionId: out.transactionId }, 200);
      },
    );
  }

  const payments = [
    {
      path: '/v1/api/charity/donate',
      tag: 'Charity',
      summary: 'Donate to a charity, optionally through escrow',
      request: CharityDonationRequest,
      response: DonationResponse,
      run: (deps: ActionDeps, input: object, options: ActionOptions) =>
        charityDonate(deps, input as CharityDonateInput, options),
    },
    {
      path: '/v1/api/merchant/payment',
      tag: 'Merchant',
      summary: 'Pay a merchant, optionally through escrow',
      request: MerchantPaymentRequest,
      response: PaymentResponse,
      run: (deps: ActionDeps, input: object, options: ActionOptions) =>
        merchantPay(deps, input as MerchantPayInput, options),
    },
  ] as const;
  for (const payment of payments) {
    app.openapi(
      createRoute({
        method: 'post',
        path: payment.path,
        tags: [payment.tag],
        summary: payment.summary,
        security,
        request: { body: jsonBody(payment.request) },
        responses: {
          200: { description: 'Submitted', content: { 'application/json': { schema: payment.response } } },
          ...errorResponses,
        },
      }),
      async (c) => {
        const out = await unwrap(payment.run(deps, c.req.valid('json'), actionOptions(c as never)));
        return c.json(
          {
            message: out.message,
            transactionId: out.transactionId,
            ...(out.escrowId ? { escrowId: out.escrowId } : {}),
          },
          200,
        );
      },
    );
  }
}
