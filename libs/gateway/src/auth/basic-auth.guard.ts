import { CanActivate, ExecutionContext, Inject, Injectable, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { ApiError, CallerContext, IdentityRpc, Permission, VerifiedCredential } from '@payments/contracts';
import { ServiceClient } from '../rpc/service-client';
import { CredentialCache } from './credential-cache';
import { RateLimiter } from './rate-limiter';

export const IDENTITY_CLIENT = Symbol('IdentityClient');
const PERMISSION_KEY = 'requiredPermission';

/** The permission a route needs (VIEW for reads, TRANSACT to move money, MANAGE for config and tokens). */
export const RequirePermission = (permission: Permission) => SetMetadata(PERMISSION_KEY, permission);

export type AuthenticatedRequest = Request & { caller: CallerContext };

/** HTTP Basic `<clientId>:<clientSecret>`; resolves the caller (platform, mode) that scopes everything after. */
@Injectable()
export class BasicAuthGuard implements CanActivate {
  constructor(
    @Inject(IDENTITY_CLIENT) private readonly identity: ServiceClient,
    private readonly cache: CredentialCache,
    private readonly limiter: RateLimiter,
    private readonly reflector: Reflector,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const credential = await this.authenticate(request.headers.authorization);
    // Sandbox-only paths do not exist for production credentials.
    if (credential.mode === 'PRODUCTION' && /^\/[^/]+\/sandbox(\/|$)/.test(request.path)) throw new ApiError('NOT_FOUND', 'no such resource or route');
    const retryAfterSeconds = this.limiter.take(credential.clientId);
    if (retryAfterSeconds > 0) throw new ApiError('RATE_LIMITED', 'too many requests for this credential', { retryAfterSeconds });
    const required = this.reflector.get<Permission | undefined>(PERMISSION_KEY, context.getHandler());
    if (required && !credential.permissions.includes(required)) {
      throw new ApiError('FORBIDDEN', `this credential lacks the ${required} permission`);
    }
    request.caller = { ...credential, correlationId: String(request.headers['x-request-id'] ?? '') || undefined };
    return true;
  }

  private async authenticate(header: string | undefined): Promise<VerifiedCredential> {
    const match = /^Basic ([A-Za-z0-9+/=]+)$/.exec(header ?? '');
    const decoded = match ? Buffer.from(match[1], 'base64').toString('utf8') : '';
    const colon = decoded.indexOf(':');
    if (colon <= 0) throw new ApiError('UNAUTHORIZED', 'HTTP Basic credentials are required');
    const clientId = decoded.slice(0, colon);
    const secret = decoded.slice(colon + 1);
    const key = CredentialCache.keyOf(clientId, secret);
    const cached = this.cache.get(key);
    if (cached) return cached;
    const credential = await this.identity.call(IdentityRpc.verifyCredential, { clientId, clientSecret: secret });
    this.cache.set(key, credential);
    return credential;
  }
}
