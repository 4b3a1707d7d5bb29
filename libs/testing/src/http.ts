/** Minimal HTTP client for e2e tests: real requests over the loopback, JSON in and out. */
export interface HttpResult<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

export function basicAuth(clientId: string, secret: string): string {
  return `Basic ${Buffer.from(`${clientId}:${secret}`).toString('base64')}`;
}

export async function http<T = any>(
  method: string,
  url: string,
  options: { auth?: string; body?: unknown; rawBody?: string; headers?: Record<string, string> } = {},
): Promise<HttpResult<T>> {
  const headers: Record<string, string> = { ...(options.headers ?? {}) };
  if (options.auth) headers.authorization = options.auth;
  let body: string | undefined = options.rawBody;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const response = await fetch(url, { method, headers, body });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    // leave non-JSON bodies as text: a test asserting the envelope will then fail visibly
  }
  return { status: response.status, headers: response.headers, body: parsed as T };
}
