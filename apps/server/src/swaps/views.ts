import {
  type Currencies,
  formatAmount,
  ppmToPercent,
  type SwapHop,
  type SwapRequestRecord,
} from '@token-actions/core';

/** Amounts go out as base-unit integer strings (like Jupiter) with a `…Decimal` twin in whole units. */
export function amounts<Name extends string>(
  currencies: Currencies,
  fields: Record<Name, { units: bigint; code: string }>,
): Record<Name | `${Name}Decimal`, string> {
  const out: Record<string, string> = {};
  for (const name in fields) {
    const { units, code } = fields[name];
    out[name] = units.toString();
    out[`${name}Decimal`] = formatAmount(units, currencies.byCode(code)?.decimals ?? 0);
  }
  return out as Record<Name | `${Name}Decimal`, string>;
}

export function hopView(currencies: Currencies, hop: SwapHop) {
  return {
    pool: hop.pool,
    inputToken: hop.inputToken,
    outputToken: hop.outputToken,
    ...amounts(currencies, {
      inAmount: { units: hop.inAmount, code: hop.inputToken },
      outAmount: { units: hop.outAmount, code: hop.outputToken },
      feeAmount: { units: hop.feeAmount, code: hop.inputToken },
    }),
  };
}

export function quoteView(
  currencies: Currencies,
  q: {
    inputToken: string;
    outputToken: string;
    inAmount: bigint;
    outAmount: bigint;
    minOutAmount: bigint;
    feeAmount: bigint;
    priceImpactPpm: bigint;
    slippageBps: number;
    hops: readonly SwapHop[];
  },
) {
  return {
    inputToken: q.inputToken,
    outputToken: q.outputToken,
    ...amounts(currencies, {
      inAmount: { units: q.inAmount, code: q.inputToken },
      outAmount: { units: q.outAmount, code: q.outputToken },
      minOutAmount: { units: q.minOutAmount, code: q.outputToken },
      feeAmount: { units: q.feeAmount, code: q.inputToken },
    }),
    priceImpactPct: ppmToPercent(q.priceImpactPpm),
    slippageBps: q.slippageBps,
    route: q.hops.map((h) => hopView(currencies, h)),
  };
}

/**
 * Views of history records, by record. A record is never changed in place (a status change is a
 * new record), and the pool cache hands every quote the same page until the pool changes, so the
 * history a quote carries is rendered once per change instead of once per request.
 */
const swapViews = new WeakMap<Currencies, WeakMap<SwapRequestRecord, ReturnType<typeof renderSwap>>>();

export function swapView(currencies: Currencies, r: SwapRequestRecord) {
  let views = swapViews.get(currencies);
  if (!views) {
    views = new WeakMap();
    swapViews.set(currencies, views);
  }
  let view = views.get(r);
  if (!view) {
    view = renderSwap(currencies, r);
    views.set(r, view);
  }
  return view;
}

function renderSwap(currencies: Currencies, r: SwapRequestRecord) {
  return {
    requestId: r.requestId,
    source: r.source,
    status: r.status,
    ...(r.transactionId ? { transactionId: r.transactionId } : {}),
    account: r.user,
    inputToken: r.inputToken,
    outputToken: r.outputToken,
    ...amounts(currencies, {
      inAmount: { units: r.inAmount, code: r.inputToken },
      outAmount: { units: r.outAmount, code: r.outputToken },
    }),
    createdAt: r.createdAt.toISOString(),
  };
}
