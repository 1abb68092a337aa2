import type { ActionDescriptor, ActionParameterSpec } from './catalog.js';

/**
 * The Actions spec's shapes as far as the service produces them (spec v2.4: "GET Response",
 * "Action Parameters", "actions.json"). Structurally they are the `@solana/actions` types, which
 * the HTTP layer checks with `satisfies`; core keeps its own copy so it imports no Solana SDK.
 */
export interface LinkedActionBody {
  readonly type: 'transaction';
  readonly href: string;
  readonly label: string;
  readonly parameters?: ActionParameterSpec[];
}

export interface ActionMetadataBody {
  readonly type: 'action';
  readonly icon: string;
  readonly title: string;
  readonly description: string;
  readonly label: string;
  readonly links: { readonly actions: LinkedActionBody[] };
}

export interface ActionsJsonBody {
  readonly rules: { readonly pathPattern: string; readonly apiPath: string }[];
}

/** The version of the Actions spec the answers follow (`X-Action-Version`). */
export const ACTION_VERSION = '2.4';

/** Query-string values that fix a parameter (a merchant's own payment link), limited to the
 * action's parameters and to what fits in a URL. */
export function presetValues(
  descriptor: ActionDescriptor,
  query: Readonly<Record<string, string | undefined>>,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const parameter of descriptor.parameters) {
    const value = query[parameter.name];
    if (typeof value === 'string' && value.length > 0 && value.length <= 256) out[parameter.name] = value;
  }
  return out;
}

/** `path?k=v&...` with the `{name}` placeholders of the spec left unencoded for the client to fill. */
function hrefWith(path: string, fixed: Record<string, string>, placeholders: readonly string[]): string {
  const pairs = [
    ...Object.entries(fixed).map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`),
    ...placeholders.map((name) => `${name}={${name}}`),
  ];
  return pairs.length === 0 ? path : `${path}?${pairs.join('&')}`;
}

/**
 * The GET answer of one action (spec "GET Response"): presets as one-click buttons, then one
 * form whose parameters are those not fixed by the query string.
 */
export function actionMetadata(
  descriptor: ActionDescriptor,
  options: { readonly path: string; readonly iconUrl: string; readonly fixed: Record<string, string> },
): ActionMetadataBody {
  const open = descriptor.parameters.filter((p) => options.fixed[p.name] === undefined);
  const presets =
    options.fixed.amount === undefined
      ? descriptor.presets.map(
          (preset): LinkedActionBody => ({
            type: 'transaction',
            label: preset.label,
            href: hrefWith(options.path, { ...options.fixed, ...preset.values }, []),
          }),
        )
      : [];
  const form: LinkedActionBody = {
    type: 'transaction',
    label: descriptor.label,
    href: hrefWith(
      options.path,
      options.fixed,
      open.map((p) => p.name),
    ),
    ...(open.length > 0 ? { parameters: open.map((p) => ({ ...p })) } : {}),
  };
  return {
    type: 'action',
    icon: options.iconUrl,
    title: descriptor.title,
    description: descriptor.description,
    label: descriptor.label,
    links: { actions: [...presets, form] },
  };
}

/** `actions.json` (spec "actions.json"): one exact rule per action, so every rule leads to one. */
export function actionsJson(catalog: readonly ActionDescriptor[], prefix: string): ActionsJsonBody {
  return {
    rules: catalog.map((d) => ({ pathPattern: `/${d.path}`, apiPath: `${prefix}/${d.path}` })),
  };
}

/**
 * CAIP-2 id of a Solana cluster: `solana:` and the first 32 characters of its genesis hash
 * (chainagnostic namespaces, solana/caip2).
 */
export function solanaChainId(genesisHash: string): string {
  return `solana:${genesisHash.slice(0, 32)}`;
}
