/** `UiTokenAmount` of agave's account decoder: the amount in base units with its decimal renderings. */
export interface UiTokenAmount {
  /** `amount / 10^decimals` as a float, as the RPC reports it; null past 19 decimals, where Rust's usize power overflows. */
  readonly uiAmount: number | null;
  readonly decimals: number;
  readonly amount: string;
  /** The exact decimal value, trailing zeros trimmed. */
  readonly uiAmountString: string;
}

const MAX_FLOAT_DECIMALS = 19;

export function uiTokenAmount(amount: bigint, decimals: number): UiTokenAmount {
  const digits = amount.toString();
  let uiAmountString = digits;
  if (decimals > 0) {
    const padded = digits.padStart(decimals + 1, '0');
    const whole = padded.slice(0, padded.length - decimals);
    const fraction = padded.slice(padded.length - decimals).replace(/0+$/, '');
    uiAmountString = fraction === '' ? whole : `${whole}.${fraction}`;
  }
  // Both conversions round to nearest, ties to even, like Rust's `as f64`, so the float is the RPC's to the bit.
  const uiAmount = decimals <= MAX_FLOAT_DECIMALS ? Number(amount) / Number(10n ** BigInt(decimals)) : null;
  return { uiAmount, decimals, amount: digits, uiAmountString };
}
