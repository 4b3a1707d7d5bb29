import type { Mode, PlatformCurrencyConfig } from '@payments/contracts';

export interface PlatformConfigFields {
  umaDomain?: string;
  webhookEndpoint?: string;
  supportedCurrencies: PlatformCurrencyConfig[];
}

export type PlatformConfigInitialized = {
  type: 'PlatformConfigInitialized.v1';
  data: PlatformConfigFields & { configId: string; platformId: string; mode: Mode; at: string };
};

/** Only the fields that changed; `webhookEndpoint: null` means it was removed. */
export type PlatformConfigUpdated = {
  type: 'PlatformConfigUpdated.v1';
  data: {
    changes: { umaDomain?: string; webhookEndpoint?: string | null; supportedCurrencies?: PlatformCurrencyConfig[] };
    at: string;
  };
};

export type PlatformConfigEvent = PlatformConfigInitialized | PlatformConfigUpdated;
