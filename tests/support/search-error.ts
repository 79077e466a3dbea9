/**
 * Test support: a SearchError as the server's own copy of src/lib/search throws it: same shape,
 * another class (the built app bundles its own), so `instanceof` cannot recognise it.
 */
export function foreignSearchError(code: string, status: number): Error {
  class SearchError extends Error {
    override name = 'SearchError';
    readonly code = code;
    get status() { return status; }
  }
  return new SearchError('no index');
}
