import type { Request } from 'express';
import { RouteLayer, urlProblem } from './url-problem';

/** A route layer as the Express 5 router builds it, for `/v/customers/:customerId/documents/:documentId`. */
const route: RouteLayer = {
  route: { methods: { get: true } },
  match: (path) => {
    const m = /^\/v\/customers\/([^/]+)\/documents\/([^/]+)$/.exec(path);
    return m ? { params: { customerId: decodeURIComponent(m[1]), documentId: decodeURIComponent(m[2]) } } : false;
  },
};
const problem = (url: string) => urlProblem({ method: 'GET', url, path: url.split('?')[0] } as Request, () => [route]);

describe('urlProblem', () => {
  it('accepts ordinary URLs, encoded unicode and spaces included', () => {
    expect(problem('/v/customers/Customer%3Aabc/documents/d1?limit=10&name=J%C3%BCrgen+M&empty=&flag')).toBeUndefined();
  });

  it('names the route parameter a bad path segment fills, or `path`', () => {
    expect(problem('/v/customers/x/documents/a%00b')).toEqual({ field: 'documentId', message: 'documentId contains a NUL character (U+0000)', constraint: { noNulCharacter: true } });
    expect(problem('/v/customers/%ED%A0%80/documents/%FF')).toEqual(expect.objectContaining({ field: 'customerId', message: 'customerId is not valid percent-encoded UTF-8' }));
    expect(problem('/v/elsewhere/%00')?.field).toBe('path');
  });

  it('names the query parameter whose value or name does not decode to storable text', () => {
    expect(problem('/v/x?limit=10&name=a%00')?.field).toBe('name');
    expect(problem('/v/x?cursor=%ED%A0%80')).toEqual(expect.objectContaining({ field: 'cursor', constraint: { percentEncodedUtf8: true } }));
    expect(problem('/v/x?na%00me=1')).toEqual(expect.objectContaining({ field: 'na\ufffdme', message: 'the query parameter name na\ufffdme contains a NUL character (U+0000)' }));
  });
});
