import type { Mode } from '@payments/contracts';

/** The sandbox's UMA domain (libs/uma, docs/uma.md): sandbox customers get addresses there when none is set. */
export const SANDBOX_UMA_DOMAIN = 'sandbox.uma.money';

/** The domain customer addresses are generated at: the platform's own, else the sandbox's in sandbox mode. */
export function effectiveUmaDomain(configured: string | null | undefined, mode: Mode): string | undefined {
  return configured || (mode === 'SANDBOX' ? SANDBOX_UMA_DOMAIN : undefined);
}
