import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { charityDonate, donate, merchantPay, mint } from '@token-actions/core';
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
        const out = await unwrap(donate(deps, { ...c.req.valid('json'), currency: currency.code }, actionOptions(c as never)));
        return c.json({ message: out.message, transactionId: out.transactionId }, 200);
      },
    );
  }

  app.openapi(
    createRoute({
      method: 'post',
      path: '/v1/api/charity/donate',
      tags: ['Charity'],
      summary: 'Donate to a charity, optionally through escrow',
      security,
      request: { body: jsonBody(CharityDonationRequest) },
      responses: {
        200: {
          description: 'Donation submitted',
          content: { 'application/json': { schema: DonationResponse } },
        },
        ...errorResponses,
      },
    }),
    async (c) => {
      const out = await unwrap(charityDonate(deps, c.req.valid('json'), actionOptions(c as never)));
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

  app.openapi(
    createRoute({
      method: 'post',
      path: '/v1/api/merchant/payment',
      tags: ['Merchant'],
      summary: 'Pay a merchant, optionally through escrow',
      security,
      request: { body: jsonBody(MerchantPaymentRequest) },
      responses: {
        200: {
          description: 'Payment submitted',
          content: { 'application/json': { schema: PaymentResponse } },
        },
        ...errorResponses,
      },
    }),
    async (c) => {
      const out = await unwrap(merchantPay(deps, c.req.valid('json'), actionOptions(c as never)));
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
