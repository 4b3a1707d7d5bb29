import { DynamicModule, INestApplication, Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { json } from 'express';
import { BasicAuthGuard, IDENTITY_CLIENT } from './auth/basic-auth.guard';
import { CredentialCache } from './auth/credential-cache';
import { ConfigController } from './config/config.controller';
import { bodyParserErrorHandler, HttpErrorFilter } from './errors/http-error.filter';
import { createValidationPipe } from './errors/validation';
import { ServiceClient, ServiceEndpoint } from './rpc/service-client';

export const API_VERSION = '2025-10-13';

export interface GatewayOptions {
  port: number;
  host?: string;
  identity: Omit<ServiceEndpoint, 'name'>;
  rpcTimeoutMs: number;
  bodyLimit?: string;
  log?: (message: string, error?: unknown) => void;
}

@Module({})
class GatewayModule {
  static register(identity: ServiceClient): DynamicModule {
    return {
      module: GatewayModule,
      controllers: [ConfigController],
      providers: [
        { provide: IDENTITY_CLIENT, useValue: identity },
        { provide: CredentialCache, useValue: new CredentialCache() },
        { provide: APP_GUARD, useClass: BasicAuthGuard },
      ],
    };
  }
}

export interface Gateway {
  app: INestApplication;
  url: string;
  stop(): Promise<void>;
}

/** The public REST surface under /<api version>; holds no domain state and forwards to services over RPC. */
export async function startGateway(options: GatewayOptions): Promise<Gateway> {
  const identity = new ServiceClient({ name: 'identity', ...options.identity }, options.rpcTimeoutMs);
  const app = await NestFactory.create<NestExpressApplication>(GatewayModule.register(identity), { bodyParser: false, logger: false });
  app.use(json({ limit: options.bodyLimit ?? '1mb', strict: true }), bodyParserErrorHandler);
  app.setGlobalPrefix(API_VERSION);
  app.useGlobalFilters(new HttpErrorFilter(options.log));
  app.useGlobalPipes(createValidationPipe());
  app.disable('x-powered-by');
  await app.listen(options.port, options.host ?? '0.0.0.0');
  const address = app.getHttpServer().address() as { port: number };
  return {
    app,
    url: `http://127.0.0.1:${address.port}/${API_VERSION}`,
    stop: async () => {
      await app.close();
      await identity.close();
    },
  };
}
