import 'reflect-metadata';
import { ApiError, CallerContext, operatorCaller, operatorRpc, rpc, RpcRequest } from '@payments/contracts';
import { Handles } from './handles';

const OperatorOnly = operatorRpc<{ n: number }, string>('test.operatorOnly', 'REVIEWER');
const PlatformOnly = rpc<{ n: number }, string>('test.platformOnly');

class Handler {
  @Handles(OperatorOnly)
  decide(request: RpcRequest<{ n: number }>): string {
    return `decided ${request.body.n}`;
  }

  @Handles(PlatformOnly)
  read(request: RpcRequest<{ n: number }>): string {
    return `read ${request.body.n}`;
  }
}

const platform: CallerContext = { platformId: 'Platform:a', mode: 'PRODUCTION', clientId: 'c', permissions: ['VIEW', 'MANAGE', 'TRANSACT'] };
const operator = (role: 'VIEWER' | 'REVIEWER' | 'ADMIN') => operatorCaller({ operatorId: 'Operator:o', name: 'O', role });
const codeOf = async (call: () => unknown) => {
  try {
    await call();
    return 'ran';
  } catch (error) {
    return error instanceof ApiError ? error.code : String(error);
  }
};

describe('@Handles: the operator boundary inside every service', () => {
  const handler = new Handler();

  it('runs an operator contract only for an operator holding its role: 404 to a platform, 403 below the role', async () => {
    expect(await codeOf(() => handler.decide({ caller: platform, body: { n: 1 } }))).toBe('NOT_FOUND');
    expect(await codeOf(() => handler.decide({ caller: { ...platform, operator: { operatorId: '', name: 'x', role: 'ADMIN' } }, body: { n: 1 } }))).toBe('NOT_FOUND');
    expect(await codeOf(() => handler.decide({ caller: operator('VIEWER'), body: { n: 1 } }))).toBe('FORBIDDEN');
    expect(await handler.decide({ caller: operator('REVIEWER'), body: { n: 1 } })).toBe('decided 1');
    expect(await handler.decide({ caller: operator('ADMIN'), body: { n: 2 } })).toBe('decided 2');
  });

  it('never runs a platform contract for an operator caller (401), and runs it for a platform', async () => {
    expect(await codeOf(() => handler.read({ caller: operator('ADMIN'), body: { n: 1 } }))).toBe('UNAUTHORIZED');
    expect(await handler.read({ caller: platform, body: { n: 3 } })).toBe('read 3');
  });
});
