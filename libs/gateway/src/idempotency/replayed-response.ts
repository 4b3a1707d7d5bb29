/** A stored response sent again; HttpErrorFilter writes it with `Idempotent-Replayed: true`. */
export class ReplayedResponse {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {}
}
