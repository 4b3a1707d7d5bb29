/**
 * Builds a parameterised WHERE clause for list filters: `add('created_at > ?', value)` numbers the placeholder, and
 * an undefined value adds nothing. Values always travel as parameters, never inside the SQL text.
 */
export class SqlWhere {
  readonly params: unknown[] = [];
  private readonly clauses: string[] = [];

  add(sql: string, value?: unknown): this {
    if (!sql.includes('?')) {
      this.clauses.push(sql);
      return this;
    }
    if (value === undefined) return this;
    this.params.push(value);
    this.clauses.push(sql.replace('?', `$${this.params.length}`));
    return this;
  }

  get sql(): string {
    return this.clauses.length > 0 ? this.clauses.join(' AND ') : 'TRUE';
  }
}
