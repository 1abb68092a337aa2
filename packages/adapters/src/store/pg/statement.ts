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

/** `name, name, ...`: the column list of `columns`. */
export function columnList<R>(columns: readonly WrittenColumn<R>[]): string {
  return columns.map((column) => column.name).join(', ');
}

/** `$first, $first+1::cast, ...`: the placeholders of one row of `columns`, each with its cast. */
export function rowPlaceholders<R>(columns: readonly WrittenColumn<R>[], first: number): string {
  return columns.map((column, i) => `$${first + i}${column.cast ? `::${column.cast}` : ''}`).join(', ');
}

/** The parameters of one row of `columns`, in column order. */
export function rowParams<R>(columns: readonly WrittenColumn<R>[], record: R): unknown[] {
  return columns.map((column) => column.value(record));
}

/**
 * `(...), (...)`: the rows of a multi-row `VALUES` list for many records, the first placeholder
 * being `$first` (so it can follow another statement's parameters).
 */
export function valueRows<R>(
  columns: readonly WrittenColumn<R>[],
  records: readonly R[],
  first = 1,
): { text: string; params: unknown[] } {
  const params: unknown[] = [];
  const rows = records.map((record) => {
    const row = `(${rowPlaceholders(columns, first + params.length)})`;
    params.push(...rowParams(columns, record));
    return row;
  });
  return { text: rows.join(', '), params };
}

/** `INSERT INTO table (columns) VALUES (...), (...)` for many records in one statement, from `$first`. */
export function insertRows<R>(
  table: string,
  columns: readonly WrittenColumn<R>[],
  records: readonly R[],
  first = 1,
): { text: string; params: unknown[] } {
  const values = valueRows(columns, records, first);
  return {
    text: `INSERT INTO ${table} (${columnList(columns)}) VALUES ${values.text}`,
    params: values.params,
  };
}
