import { IsString, MaxLength, registerDecorator, ValidationOptions } from 'class-validator';
import { OptionalNotNull } from './optional-not-null';

/** KycProvider of the spec: its only value. The sandbox's hosted page stands in for the provider's flow. */
export const KYC_LINK_PROVIDERS = ['SUMSUB'] as const;
export type KycLinkProvider = (typeof KYC_LINK_PROVIDERS)[number];

/** How long a hosted link stays usable (it is also single-use). */
export const KYC_LINK_TTL_MS = 24 * 60 * 60 * 1000;

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** An absolute https URL, or http to the local machine (developers' callbacks); no credentials in it. */
export function isRedirectUri(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  if (url.username || url.password) return false;
  return url.protocol === 'https:' || (url.protocol === 'http:' && LOCAL_HOSTS.has(url.hostname));
}

export function IsRedirectUri(options?: ValidationOptions): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isRedirectUri',
      target: target.constructor,
      propertyName: propertyName as string,
      options: { message: `${String(propertyName)} must be an https URL (http only for localhost)`, ...options },
      validator: { validate: isRedirectUri },
    });
}

/** POST /customers/{customerId}/kyc-link. */
export class CreateKycLinkRequest {
  @OptionalNotNull() @IsString() @MaxLength(2048) @IsRedirectUri() redirectUri?: string;
}

/** The hosted link. `token` is only for providers with an embedded SDK; the sandbox page has none, so it is absent. */
export interface KycLink {
  /**
   * Single-use hosted verification page; hand it to the end user. Shown once: absent on an Idempotency-Key replay.
   * @format uri
   */
  kycUrl?: string;
  /**
   * 24 hours after creation.
   * @format date-time
   */
  expiresAt: string;
  provider: KycLinkProvider;
  /** Only for providers with an embedded SDK; not returned by the sandbox. */
  token?: string;
}

/** Body of the create RPC: the validated request plus where the gateway serves the hosted page. */
export interface CreateKycLinkBody extends CreateKycLinkRequest {
  customerId: string;
  /** Origin of the gateway as clients reach it, e.g. `https://api.example.com`; the page is `<origin>/kyc/<token>`. */
  publicOrigin: string;
}

/** What the hosted page needs after a successful open. */
export interface OpenedKycLink {
  redirectUri?: string;
}
