import type { Currencies, Currency } from '../domain/currency.js';
import { PRIORITY_LEVELS } from '../domain/priority.js';
import { NFT_LIMITS } from '../use-cases/payments/pipeline/parse.js';
import type { ActionType } from '../use-cases/payments/pipeline/payment.js';

/**
 * The Solana Actions the service offers, as data: what each asks of the user (typed parameters,
 * Actions spec "Action Parameters") and which use-case action it becomes. The metadata, the
 * `actions.json` rules and the reading of a POST are all derived from this one list.
 */

interface ParameterBase {
  readonly name: string;
  readonly label: string;
  readonly required: boolean;
}

/** A typed input (spec "Action Parameters"); a pattern and minimum guide the client, core decides. */
export interface InputParameter extends ParameterBase {
  readonly type: 'number' | 'text' | 'url';
  readonly pattern?: string;
  readonly patternDescription?: string;
  readonly min?: number;
}

export interface SelectParameter extends ParameterBase {
  readonly type: 'select';
  readonly options: { label: string; value: string; selected?: boolean }[];
}

export type ActionParameterSpec = InputParameter | SelectParameter;

export interface ActionDescriptor {
  /** Path below the actions prefix, e.g. `donate/sol`. */
  readonly path: string;
  readonly type: ActionType;
  /** The currency of a per-currency action; otherwise the user picks one. */
  readonly currency?: string;
  readonly title: string;
  readonly description: string;
  /** The button of the parameterised action. */
  readonly label: string;
  readonly parameters: readonly ActionParameterSpec[];
  /** One-click buttons with preset values (`{label, values}`), shown before the form. */
  readonly presets: readonly { readonly label: string; readonly values: Readonly<Record<string, string>> }[];
}

const BASE58_KEY = '^[1-9A-HJ-NP-Za-km-z]{32,44}$';

function amountParameter(currencies: readonly Currency[]): InputParameter {
  const decimals = Math.max(...currencies.map((c) => c.decimals));
  const fixed = currencies.length === 1 ? ` ${currencies[0]!.code}` : '';
  return {
    name: 'amount',
    label: `Amount${fixed}`,
    type: 'number',
    required: true,
    pattern: `^\\d+(\\.\\d{1,${decimals}})?$`,
    patternDescription: `a positive decimal with at most ${decimals} decimal places`,
    min: 10 ** -decimals,
  };
}

function currencyParameter(currencies: Currencies): SelectParameter {
  return {
    name: 'currency',
    label: 'Currency',
    type: 'select',
    required: true,
    options: currencies.all.map((c, i) => ({
      label: c.code,
      value: c.code,
      ...(i === 0 ? { selected: true } : {}),
    })),
  };
}

const priorityParameter: SelectParameter = {
  name: 'priority',
  label: 'Priority',
  type: 'select',
  required: false,
  options: PRIORITY_LEVELS.map((level) => ({
    label: level,
    value: level,
    ...(level === 'Medium' ? { selected: true } : {}),
  })),
};

const escrowParameter: SelectParameter = {
  name: 'useEscrow',
  label: 'Hold in escrow',
  type: 'select',
  required: false,
  options: [
    { label: 'No, pay directly', value: 'false', selected: true },
    { label: 'Yes, through escrow', value: 'true' },
  ],
};

function keyParameter(name: 'charity' | 'merchant', label: string): InputParameter {
  return {
    name,
    label,
    type: 'text',
    required: true,
    pattern: BASE58_KEY,
    patternDescription: 'a Solana address (base58)',
  };
}

function textParameter(name: 'name' | 'symbol', label: string): InputParameter {
  return {
    name,
    label,
    type: 'text',
    required: true,
    pattern: `^.{1,${NFT_LIMITS[name]}}$`,
    patternDescription: `1 to ${NFT_LIMITS[name]} characters`,
  };
}

/** Round numbers a donor clicks without typing, in whole units of the currency. */
const PRESETS: Record<Currency['kind'], readonly string[]> = {
  native: ['0.1', '1'],
  stable: ['5', '25'],
  project: ['100', '1000'],
};

export function actionCatalog(currencies: Currencies): ActionDescriptor[] {
  const donations = currencies.all.map(
    (currency): ActionDescriptor => ({
      path: `donate/${currency.code.toLowerCase()}`,
      type: 'donation',
      currency: currency.code,
      title: `Donate ${currency.code}`,
      description: `Donate ${currency.code} to the project treasury. The service pays the network fee.`,
      label: `Donate ${currency.code}`,
      parameters: [amountParameter([currency]), priorityParameter],
      presets: PRESETS[currency.kind].map((amount) => ({
        label: `Donate ${amount} ${currency.code}`,
        values: { amount },
      })),
    }),
  );
  return [
    ...donations,
    {
      path: 'charity',
      type: 'charity_donation',
      title: 'Donate to a charity',
      description: 'Donate to a charity address, directly or held in escrow until released.',
      label: 'Donate',
      parameters: [
        keyParameter('charity', 'Charity address'),
        amountParameter(currencies.all),
        currencyParameter(currencies),
        priorityParameter,
        escrowParameter,
      ],
      presets: [],
    },
    {
      path: 'merchant',
      type: 'merchant_payment',
      title: 'Pay a merchant',
      description: 'Pay a merchant address, directly or held in escrow until released.',
      label: 'Pay',
      parameters: [
        keyParameter('merchant', 'Merchant address'),
        amountParameter(currencies.all),
        currencyParameter(currencies),
        priorityParameter,
        escrowParameter,
      ],
      presets: [],
    },
    {
      path: 'mint',
      type: 'mint',
      title: 'Mint an NFT',
      description: 'Mint a Token-2022 NFT with on-chain metadata to your wallet. The service pays the fee.',
      label: 'Mint',
      parameters: [
        textParameter('name', 'NFT name'),
        textParameter('symbol', 'Symbol'),
        {
          name: 'uri',
          label: 'Metadata URI',
          type: 'url',
          required: true,
          patternDescription: `an absolute URI of at most ${NFT_LIMITS.uri} bytes`,
        },
        priorityParameter,
      ],
      presets: [],
    },
  ];
}
