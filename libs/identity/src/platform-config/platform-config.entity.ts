import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { EmbeddedWalletConfig, FeeConfig, Mode, PlatformConfig, PlatformCurrencyConfig } from '@payments/contracts';

/** Read model behind GET /config, written inline with every PlatformConfig event. */
@Entity({ name: 'platform_configs' })
export class PlatformConfigView {
  @PrimaryColumn({ name: 'platform_id', type: 'text' }) platformId!: string;
  @PrimaryColumn({ type: 'text' }) mode!: Mode;
  @Column({ name: 'config_id', type: 'text' }) configId!: string;
  @Column({ name: 'uma_domain', type: 'text', nullable: true }) umaDomain!: string | null;
  @Column({ name: 'webhook_endpoint', type: 'text', nullable: true }) webhookEndpoint!: string | null;
  @Column({ name: 'webhook_endpoint_status', type: 'text', default: 'ACTIVE' }) webhookEndpointStatus!: 'ACTIVE' | 'DISABLED';
  @Column({ name: 'supported_currencies', type: 'jsonb' }) supportedCurrencies!: PlatformCurrencyConfig[];
  @Column({ name: 'fee_configs', type: 'jsonb', default: () => "'[]'::jsonb" }) feeConfigs!: FeeConfig[];
  /** Null until the platform sets one (PATCH /config). */
  @Column({ name: 'embedded_wallet_config', type: 'jsonb', nullable: true }) embeddedWalletConfig!: EmbeddedWalletConfig | null;
  @Column({ name: 'created_at', type: 'timestamptz' }) createdAt!: Date;
  @Column({ name: 'updated_at', type: 'timestamptz' }) updatedAt!: Date;
}

export function toPlatformConfig(view: PlatformConfigView): PlatformConfig {
  return {
    id: view.configId,
    ...(view.umaDomain ? { umaDomain: view.umaDomain } : {}),
    ...(view.webhookEndpoint ? { webhookEndpoint: view.webhookEndpoint, webhookEndpointStatus: view.webhookEndpointStatus } : {}),
    supportedCurrencies: view.supportedCurrencies,
    feeConfigs: view.feeConfigs ?? [],
    ...(view.embeddedWalletConfig ? { embeddedWalletConfig: view.embeddedWalletConfig } : {}),
    createdAt: view.createdAt.toISOString(),
    updatedAt: view.updatedAt.toISOString(),
  };
}
