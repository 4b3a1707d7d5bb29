import { RouteFinder, urlProblem } from './url-problem';

/** The router's lookup for one route, `/v/customers/:customerId/documents/:documentId` under GET. */
const find: RouteFinder = (method, path) => {
  const m = /^\/v\/customers\/([^/]+)\/documents\/([^/]+)$/.exec(path);
  return method === 'GET' && m ? { customerId: decodeURIComponent(m[1]), documentId: decodeURIComponent(m[2]) } : undefined;
};
const problem = (url: string, method = 'GET') => urlProblem({ method, url }, find);

describe('urlProblem', () => {
  it('accepts ordinary URLs, encoded unicode and spaces included', () => {
    expect(problem('/v/customers/Customer%3Aabc/documents/d1?limit=10&name=J%C3%BCrgen+M&empty=&flag')).toBeUndefined();
  });

  it('names the route parameter a bad path segment fills, or `path`', () => {
    expect(problem('/v/customers/x/documents/a%00b')).toEqual({ field: 'documentId', message: 'documentId contains a NUL character (U+0000)', constraint: { noNulCharacter: true } });
    expect(problem('/v/customers/%ED%A0%80/documents/%FF')).toEqual(expect.objectContaining({ field: 'customerId', message: 'customerId is not valid percent-encoded UTF-8' }));
    expect(problem('/v/customers/x/documents/a%00b', 'DELETE')?.field).toBe('documentId'); // served under another method: still named
    expect(problem('/v/elsewhere/%00')?.field).toBe('path');
  });

  it('names the query parameter whose value or name does not decode to storable text', () => {
    expect(problem('/v/x?limit=10&name=a%00')?.field).toBe('name');
    expect(problem('/v/x?cursor=%ED%A0%80')).toEqual(expect.objectContaining({ field: 'cursor', constraint: { percentEncodedUtf8: true } }));
    expect(problem('/v/x?na%00me=1')).toEqual(expect.objectContaining({ field: 'na\ufffdme', message: 'the query parameter name na\ufffdme contains a NUL character (U+0000)' }));
  });
});
