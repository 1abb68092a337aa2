/**
 * JSON as the Solana RPC writes it: u64 and i64 values (bigint here) become plain integers, never
 * strings or rounded floats, and `undefined` fields are left out (serde's `skip_serializing_if`).
 */
export function toJson(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  switch (typeof value) {
    case 'bigint':
      return value.toString();
    case 'number':
      return Number.isFinite(value) ? String(value) : 'null';
    case 'string':
    case 'boolean':
      return JSON.stringify(value);
    case 'object': {
      if (Array.isArray(value)) return `[${value.map(toJson).join(',')}]`;
      const parts: string[] = [];
      for (const [key, item] of Object.entries(value)) {
        if (item !== undefined) parts.push(`${JSON.stringify(key)}:${toJson(item)}`);
      }
      return `{${parts.join(',')}}`;
    }
    default:
      return 'null';
  }
}
