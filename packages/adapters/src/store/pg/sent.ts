/**
 * What both SQL clients' transactions keep about their function: the statements it sent without
 * waiting (`TransactionExecutor.send`), and whether it has settled.
 */
export class SentStatements {
  private readonly statements: Promise<unknown>[] = [];
  private open = true;

  /**
   * Refuses a statement once the function has settled: it would run after the COMMIT, outside
   * the transaction, on a connection that may already serve another caller.
   */
  assertOpen(): void {
    if (!this.open) throw new Error('a statement was issued after its transaction ended');
  }

  /** Keeps a statement to wait for; a failure is reported by `settle`, never left unhandled. */
  add(statement: Promise<unknown>): void {
    statement.catch(() => {});
    this.statements.push(statement);
  }

  /** Runs the transaction's function; no statement is accepted once it has settled. */
  async run<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } finally {
      this.open = false;
    }
  }

  /** Waits for every statement kept, then `last`, and throws the first failure in that order. */
  async settle(...last: Promise<unknown>[]): Promise<void> {
    for (const outcome of await Promise.allSettled([...this.statements, ...last])) {
      if (outcome.status === 'rejected') throw outcome.reason;
    }
  }
}
