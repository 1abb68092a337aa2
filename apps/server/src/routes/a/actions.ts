import { createRoute } from '@hono/zod-openapi';
import {
  type ActionDeps,
  type ActionOptions,
  charityDonate,
  donate,
  merchantPay,
  mint,
} from '@token-actions/core';
import { actionOptions, unwrap } from '../../http/respond.js';
import type { InterfaceAApp } from '../../interface-a/render.js';
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
import { forbidden, IdempotencyHeaders, jsonBody, ok, security, writeErrors } from './common.js';

export function registerActionRoutes(app: InterfaceAApp, services: AppServices) {
  const { deps } = services;

  app.openapi(
    createRoute({
      method: 'post',
      path: '/v1/api/mint',
      operationId: 'mintNft',
      tags: ['NFT'],
      summary: 'Mint a new NFT (Token-2022 with on-chain metadata)',
      security,
      request: { headers: IdempotencyHeaders, body: jsonBody(MintNftRequest) },
      responses: { ...ok('Minted', MintNftResponse), ...writeErrors },
    }),
    async (c) => {
      const out = await unwrap(mint(deps, c.req.valid('json'), actionOptions(c)));
      return c.json({ message: out.message, transactionId: out.transactionId, mint: out.mint ?? '' }, 200);
    },
  );

  for (const currency of deps.currencies.all) {
    const lower = currency.code.toLowerCase();
    app.openapi(
      createRoute({
        method: 'post',
        path: `/v1/api/donate/${lower}`,
        operationId: `donate${currency.code.charAt(0)}${lower.slice(1)}`,
        tags: ['Donation'],
        summary: `Donate ${currency.code} to the project treasury`,
        security,
        request: { headers: IdempotencyHeaders, body: jsonBody(DonateRequest) },
        responses: { ...ok('Donation submitted', DonationResponse), ...writeErrors },
      }),
      async (c) => {
        const out = await unwrap(
          donate(deps, { ...c.req.valid('json'), currency: currency.code }, actionOptions(c)),
        );
        return c.json({ message: out.message, transactionId: out.transactionId }, 200);
      },
    );
  }

  const payments = [
    {
      path: '/v1/api/charity/donate',
      operationId: 'donateToCharity',
      tag: 'Charity',
      summary: 'Donate to a charity, optionally through escrow',
      request: CharityDonationRequest,
      response: DonationResponse,
      run: (deps: ActionDeps, input: object, options: ActionOptions) =>
        charityDonate(deps, input as CharityDonationRequest, options),
    },
    {
      path: '/v1/api/merchant/payment',
      operationId: 'payMerchant',
      tag: 'Merchant',
      summary: 'Pay a merchant, optionally through escrow',
      request: MerchantPaymentRequest,
      response: PaymentResponse,
      run: (deps: ActionDeps, input: object, options: ActionOptions) =>
        merchantPay(deps, input as MerchantPaymentRequest, options),
    },
  ] as const;
  for (const payment of payments) {
    app.openapi(
      createRoute({
        method: 'post',
        path: payment.path,
        operationId: payment.operationId,
        tags: [payment.tag],
        summary: payment.summary,
        security,
        request: { headers: IdempotencyHeaders, body: jsonBody(payment.request) },
        responses: { ...ok('Submitted', payment.response), ...writeErrors, ...forbidden },
      }),
      async (c) => {
        const out = await unwrap(payment.run(deps, c.req.valid('json'), actionOptions(c)));
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
