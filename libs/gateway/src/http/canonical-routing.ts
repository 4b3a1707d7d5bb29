/**
 * Why `rawPath` (the path of the request target as sent, still percent-encoded) is not the one spelling a route is
 * served under, or undefined: an empty segment (`//`, which a proxy may merge), a dot segment (`.`, `..`, also as
 * `%2e`, which clients and proxies resolve and the router does not), or a trailing slash. Such a path names no
 * operation: it is a 404, as for any unknown route, so no operation's checks are ever reached through a spelling that
 * something else (a guard, a metrics label, a redaction, a proxy) reads differently. The router itself is
 * case-sensitive and strict about trailing slashes (gateway-http.ts).
 */
export function nonCanonicalPath(rawPath: string): string | undefined {
  if (rawPath === '/') return undefined;
  const segments = rawPath.split('/').slice(1);
  if (segments[segments.length - 1] === '') return 'a trailing slash';
  if (segments.some((segment) => segment === '')) return 'an empty path segment';
  if (segments.some((segment) => /^(\.|%2e){1,2}$/i.test(segment))) return 'a dot segment';
  if (!rawPath.startsWith('/')) return 'not an origin-form path';
  return undefined;
}
