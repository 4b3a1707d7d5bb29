import { nonCanonicalPath } from './canonical-routing';

describe('nonCanonicalPath: the spellings no route is served under', () => {
  it.each([
    ['/2025-10-13/sandbox/send/', 'a trailing slash'],
    ['/2025-10-13/sandbox/send//', 'a trailing slash'],
    ['//2025-10-13/sandbox/send', 'an empty path segment'],
    ['/2025-10-13//sandbox/send', 'an empty path segment'],
    ['/2025-10-13/./sandbox/send', 'a dot segment'],
    ['/2025-10-13/x/../sandbox/send', 'a dot segment'],
    ['/2025-10-13/%2e/sandbox/send', 'a dot segment'],
    ['/2025-10-13/x/%2E%2e/sandbox/send', 'a dot segment'],
    ['/2025-10-13/x/.%2E/sandbox/send', 'a dot segment'],
    ['/2025-10-13/sandbox/send/.', 'a dot segment'],
  ])('%s: %s', (path, reason) => expect(nonCanonicalPath(path)).toBe(reason));

  it.each(['/', '/2025-10-13/sandbox/send', '/2025-10-13/customers/Customer:1', '/docs', '/2025-10-13/customers/a.b', '/2025-10-13/x/...', '/2025-10-13/x/%2e%2e%2e'])(
    '%s is canonical (a dot inside a segment is just a character)',
    (path) => expect(nonCanonicalPath(path)).toBeUndefined(),
  );
});
