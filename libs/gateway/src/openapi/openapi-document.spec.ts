import { Body, Controller, Module, Post } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { IsString } from 'class-validator';
import { IDENTITY_CLIENT } from '../auth/basic-auth.guard';
import { ConfigController } from '../config/config.controller';
import { ApiOperationSpec } from './api-operation-spec';
import { buildOpenApiDocument } from './openapi-document';

class CreateWidgetRequest {
  @IsString()
  name!: string;
}

// Loaded in the process but used by no route: must not leak into the document.
export class UnrelatedInternalDto {
  @IsString()
  secretField!: string;
}

@Controller('widgets')
class WidgetsController {
  @Post()
  @ApiOperationSpec({ summary: 'Create a widget', body: CreateWidgetRequest, ok: 'PlatformConfig', okStatus: 201, errors: [400] })
  create(@Body() body: CreateWidgetRequest): CreateWidgetRequest {
    return body;
  }
}

@Module({ controllers: [ConfigController, WidgetsController], providers: [{ provide: IDENTITY_CLIENT, useValue: {} }] })
class DocumentTestModule {}

/** The document from a Nest app that is created but never listens: route scanning only, no HTTP, no database. */
describe('buildOpenApiDocument', () => {
  async function build(): Promise<string> {
    const app = await NestFactory.create(DocumentTestModule, { logger: false });
    app.setGlobalPrefix('v1');
    try {
      return JSON.stringify(buildOpenApiDocument(app, 'v1'));
    } finally {
      await app.close();
    }
  }

  it('is byte-stable and holds only the schemas its operations reach', async () => {
    const first = await build();
    expect(await build()).toBe(first);
    const doc = JSON.parse(first);
    expect(Object.keys(doc.components.schemas).sort()).toEqual(
      ['CreateWidgetRequest', 'Error', 'FeeAmountDto', 'FeeConfigDto', 'FieldConstraint', 'FieldError', 'PlatformConfig', 'PlatformCurrencyConfig', 'PlatformCurrencyConfigDto', 'RequiredFieldDto', 'UpdatePlatformConfigRequest'],
    );
    expect(doc.components.schemas.CreateWidgetRequest).toEqual({ additionalProperties: false, properties: { name: { type: 'string' } }, required: ['name'], type: 'object' });
  });

  it('documents Idempotency-Key, its replay header and its 409/422 on every POST, and on nothing else', async () => {
    const doc = JSON.parse(await build());
    const post = doc.paths['/v1/widgets'].post;
    expect(post.parameters.map((p: { name: string }) => p.name)).toEqual(['Idempotency-Key']);
    expect(post.responses['201'].headers['Idempotent-Replayed']).toBeDefined();
    expect(Object.keys(post.responses).sort()).toEqual(['201', '400', '409', '422']);
    expect(JSON.stringify(doc.paths['/v1/config'])).not.toContain('Idempotency-Key');
  });
});
