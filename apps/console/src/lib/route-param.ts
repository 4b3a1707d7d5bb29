/**
 * A route parameter as the id it names. wouter hands parameters over still percent-encoded (links encode the `:` of
 * ids); a parameter that is not valid percent-encoding is taken as it is (the API then answers 404 for it).
 */
export function decodedParam(raw: string | undefined): string {
  try {
    return decodeURIComponent(raw ?? '');
  } catch {
    return raw ?? '';
  }
}
