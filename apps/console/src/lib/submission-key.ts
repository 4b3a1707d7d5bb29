/**
 * The Idempotency-Key of a form's submissions: the same key while the same values are sent again (a retry after a
 * network error or a timeout reaches the API as the same request, so a transfer is not made twice), a new one once a
 * submission succeeded or the values changed (that is a new request).
 */
export class SubmissionKey {
  private key?: string;
  private sent?: string;

  constructor(private readonly newKey: () => string = () => crypto.randomUUID()) {}

  for(values: unknown): string {
    const sent = JSON.stringify(values);
    if (!this.key || sent !== this.sent) {
      this.key = this.newKey();
      this.sent = sent;
    }
    return this.key;
  }

  succeeded(): void {
    this.key = undefined;
    this.sent = undefined;
  }
}
