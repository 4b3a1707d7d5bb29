import { parseUmaAddress } from './uma-address';

/** The sandbox UMA domain (the docs' spelling); the spec's examples also use SANDBOX_UMA_DOMAIN_ALIAS. */
export const SANDBOX_UMA_DOMAIN = 'sandbox.uma.money';
export const SANDBOX_UMA_DOMAIN_ALIAS = 'sandbox.grid.uma.money';
export const SANDBOX_UMA_DOMAINS: readonly string[] = [SANDBOX_UMA_DOMAIN, SANDBOX_UMA_DOMAIN_ALIAS];

/** What a payment to a sandbox receiver does (the seed's sandbox table). */
export const SANDBOX_UMA_OUTCOMES = ['SUCCESS', 'PENDING_LONG', 'FAIL_COMPLIANCE'] as const;
export type SandboxUmaOutcome = (typeof SANDBOX_UMA_OUTCOMES)[number];

export interface SandboxUmaReceiver {
  /** The one currency the receiver is paid in. */
  currency: string;
  outcome: SandboxUmaOutcome;
}

/** The seed's sandbox receivers, by user part: they exist at every sandbox domain and only in sandbox mode. */
export const SANDBOX_UMA_RECEIVERS: Readonly<Record<string, SandboxUmaReceiver>> = {
  'success.usd': { currency: 'USD', outcome: 'SUCCESS' },
  'success.eur': { currency: 'EUR', outcome: 'SUCCESS' },
  'success.mxn': { currency: 'MXN', outcome: 'SUCCESS' },
  'pending.long.usd': { currency: 'USD', outcome: 'PENDING_LONG' },
  'fail.compliance.usd': { currency: 'USD', outcome: 'FAIL_COMPLIANCE' },
};

/** The sandbox receiver at `address` (any case, either sandbox domain), or undefined when it is not one. */
export function sandboxUmaReceiver(address: string): SandboxUmaReceiver | undefined {
  const parsed = parseUmaAddress(address);
  if (!parsed || !SANDBOX_UMA_DOMAINS.includes(parsed.domain)) return undefined;
  return Object.prototype.hasOwnProperty.call(SANDBOX_UMA_RECEIVERS, parsed.user) ? SANDBOX_UMA_RECEIVERS[parsed.user] : undefined;
}

export const isSandboxUmaDomain = (domain: string): boolean => SANDBOX_UMA_DOMAINS.includes(domain.toLowerCase());
