import { Mode, notConfigured } from '@payments/contracts';
import type { StablecoinProviderPort } from './provider/provider.port';

/**
 * Which provider adapter serves a mode: the simulated provider in the sandbox; in production the configured adapter
 * (Brale, when BRALE_API_URL is set), else 501 NOT_IMPLEMENTED before anything is stored or moved.
 */
export class StablecoinProviders {
  constructor(
    private readonly sandbox: StablecoinProviderPort,
    private readonly production?: StablecoinProviderPort,
  ) {}

  for(mode: Mode): StablecoinProviderPort {
    if (mode === 'SANDBOX') return this.sandbox;
    if (!this.production) throw notConfigured('STABLECOIN_PROVIDER', 'no stablecoin provider is configured for production on this deployment (BRALE_API_URL)', 'BRALE_API_URL');
    return this.production;
  }
}
