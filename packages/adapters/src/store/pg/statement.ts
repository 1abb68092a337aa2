/**
 * A statement whose parameters have names. The text is written with `${p.name}` where a value
 * goes, and the placeholders are numbered from the order of `names`, so nobody counts `$17` by
 * hand and a misspelt name does not compile.
 */
export interface Statement<Name extends string> {
  readonly text: string;
  /** How many placeholders the text uses: a statement appended to this one numbers from `size + 1`. */
  readonly size: number;
  /** The positional parameters, in placeholder order. */
  params(values: Readonly<Record<Name, unknown>>): unknown[];
}

export function statement<const Name extends string>(
  names: readonly Name[],
  write: (p: Readonly<Record<Name, string>>) => string,
): Statement<Name> {
  const placeholders = Object.fromEntries(names.map((name, i) => [name, `$${i + 1}`])) as Record<
    Name,
    string
  >;
  return {
    text: write(placeholders),
    size: names.length,
    params: (values) => names.map((name) => values[name]),
  };
}

/** One column of a row written from a record: its name, its cast if any, and its value. */
export interface WrittenColumn<R> {
  readonly name: string;
  /** The parameter's cast, for a value sent as text that the column stores otherwise (`jsonb`). */
  readonly cast?: string;
  readonly value: (record: R) => unknown;
}

/**
 * `INSERT INTO table (columns) VALUES (...), (...)` for many records in one statement, the first
 * placeholder being `$first` (so it can follow another statement's parameters).
 */
export function insertRows<R>(
  table: string,
  columns: readonly WrittenColumn<R>[],
  records: readonly R[],
  first = 1,
): { text: string; params: unknown[] } {
  const params: unknown[] = [];
  const rows = records.map((record) => {
    const at = first + params.length;
    for (const column of columns) params.push(column.value(record));
    return `(${columns.map((column, i) => `$${at + i}${column.cast ? `::${column.cast}` : ''}`).join(',')})`;
  });
  return {
    text: `INSERT INTO ${table} (${columns.map((column) => column.name).join(', ')}) VALUES ${rows.join(', ')}`,
    params,
  };
}
