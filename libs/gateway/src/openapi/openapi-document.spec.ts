import { IsString } from 'class-validator';
import { IdentityRpc, operation, OPERATIONS, rpc, UpdatePlatformConfigRequest } from '@payments/contracts';
import { buildOpenApiDocument } from './openapi-document';

class CreateWidgetRequest {
  @IsString()
  name!: string;
}

// Loaded in the process but used by no operation: must not leak into the document.
export class UnrelatedInternalDto {
  @IsString()
  secretField!: string;
}

const OPS = [
  operation({
    operationId: 'updatePlatformConfig',
    method: 'PATCH',
    path: '/config',
    tag: 'Platform Configuration',
    summary: 'Update',
    permission: 'MANAGE',
    service: 'identity',
    rpc: IdentityRpc.updateConfig,
    body: UpdatePlatformConfigRequest,
    status: 200,
    response: 'PlatformConfig',
    request: ({ body }) => body,
  }),
  operation({
    operationId: 'createWidget',
    method: 'POST',
    path: '/widgets/{shopId}',
    tag: 'Widgets',
    summary: 'Create a widget',
    permission: 'MANAGE',
    service: 'identity',
    rpc: rpc<CreateWidgetRequest & { shopId: string }, unknown>('identity.widgets.create'),
    body: CreateWidgetRequest,
    status: 201,
    response: 'PlatformConfig',
    request: ({ params, body }) => ({ ...body, shopId: params.shopId }),
  }),
];

/** The document is a pure function of the declarations: no Nest app, no HTTP, no database. */
describe('buildOpenApiDocument', () => {
  const build = () => JSON.stringify(buildOpenApiDocument(OPS, 'v1'));

  it('is byte-stable and holds only the schemas its operations reach', () => {
    const first = build();
    expect(build()).toBe(first);
    const doc = JSON.parse(first);
    expect(doc.servers).toEqual([{ url: '/v1' }]);
    expect(Object.keys(doc.components.schemas)).toContain('CreateWidgetRequest');
    expect(Object.keys(doc.components.schemas)).not.toContain('UnrelatedInternalDto');
    expect(Object.keys(doc.components.schemas)).not.toContain('Customer');
    expect(doc.components.schemas.CreateWidgetRequest).toEqual({ additionalProperties: false, properties: { name: { type: 'string' } }, required: ['name'], type: 'object' });
  });

  it('documents path parameters, Idempotency-Key, its replay header and 409 on every POST, and on nothing else', () => {
    const doc = JSON.parse(build());
    const post = doc.paths['/widgets/{shopId}'].post;
    expect(post.parameters.map((p: { name: string; in: string }) => `${p.in}:${p.name}`)).toEqual(['path:shopId', 'header:Idempotency-Key']);
    expect(post.responses['201'].headers['Idempotent-Replayed']).toBeDefined();
    expect(Object.keys(post.responses).sort()).toEqual(['201', '400', '401', '403', '404', '409', '413', '415', '429', '500', '503']);
    expect(JSON.stringify(doc.paths['/config'])).not.toContain('Idempotency-Key');
    expect(Object.keys(doc.paths['/config'].patch.responses)).not.toContain('409');
  });

  it('documents agent operations with the AgentAuth bearer scheme, credential-less ones with no security and no Idempotency-Key, the rest with BasicAuth', () => {
    const doc = JSON.parse(JSON.stringify(buildOpenApiDocument(OPERATIONS, 'v1')));
    expect(doc.security).toEqual([{ BasicAuth: [] }]);
    expect(doc.components.securitySchemes).toEqual({ BasicAuth: expect.objectContaining({ type: 'http', scheme: 'basic' }), AgentAuth: expect.objectContaining({ type: 'http', scheme: 'bearer' }) });
    expect(doc.paths['/agents/me'].get.security).toEqual([{ AgentAuth: [] }]);
    expect(doc.paths['/agents/me/transfer-in'].post.security).toEqual([{ AgentAuth: [] }]);
    const redeem = doc.paths['/agents/device-codes/{code}/redeem'].post;
    expect(redeem.security).toEqual([]);
    expect(redeem.parameters.map((p: { name: string }) => p.name)).toEqual(['code']);
    expect(redeem.responses['200'].headers).toBeUndefined();
    expect(doc.paths['/agents'].post.security).toBeUndefined(); // Agent Management: the document's BasicAuth
    expect(doc.paths['/agents/{agentId}'].get.security).toBeUndefined();
  });

  it('gives every declared operation a unique operationId and a unique method and path', () => {
    const ids = OPERATIONS.map((op) => op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    const routes = OPERATIONS.map((op) => `${op.method} ${op.path}`);
    expect(new Set(routes).size).toBe(routes.length);
    expect(() => buildOpenApiDocument(OPERATIONS, 'v1')).not.toThrow(); // every referenced schema exists
  });
});
