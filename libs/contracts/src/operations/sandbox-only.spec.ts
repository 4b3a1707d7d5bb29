import 'reflect-metadata';
import { OPERATIONS } from './index';

describe('sandbox-only operations', () => {
  it('are declared so by the HTTP operation and by the RPC contract behind it, the same way', () => {
    const disagree = OPERATIONS.filter((op) => !!op.sandboxOnly !== !!op.rpc.sandboxOnly).map((op) => `${op.operationId} (${op.rpc.pattern})`);
    expect(disagree).toEqual([]);
  });

  it('all take credentials: an anonymous caller (auth none) has no mode to check', () => {
    expect(OPERATIONS.filter((op) => op.sandboxOnly && op.auth === 'none').map((op) => op.operationId)).toEqual([]);
  });

  it('include every operation under /sandbox/, the only place the published API puts them', () => {
    const undeclared = OPERATIONS.filter((op) => op.path.toLowerCase().startsWith('/sandbox/') !== !!op.sandboxOnly).map((op) => op.operationId);
    expect(undeclared).toEqual([]);
  });
});
