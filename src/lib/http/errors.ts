/**
 * What of an internal error may reach a client: its first line, without file paths, URLs (an
 * upstream's address) or stack frames, and short. The full error stays in the log.
 * @example publicReason(new Error('ENOENT: no such file, open \'/srv/dist/x.json\'')) // "ENOENT: no such file, open '…'"
 */
export function publicReason(err: unknown, max = 160): string {
  const text = err instanceof Error ? err.message : typeof err === 'string' ? err : 'unknown error';
  const line = (text.split('\n')[0] ?? '')
    .replace(/\b[a-z][a-z0-9+.-]*:\/\/\S+/gi, '…')
    .replace(/(?:[A-Za-z]:)?(?:[\\/][\w.@~+-]+){2,}[\\/]?/g, '…')
    .replace(/\s+at\s.*$/, '')
    .trim();
  return (line.length > max ? `${line.slice(0, max - 1)}…` : line) || 'unknown error';
}
