/** A mailto: link with subject and body encoded per RFC 6068 (spaces as %20, line breaks as %0D%0A). */
export function mailtoLink(to: string, subject: string, body: string): string {
  const params: string[] = [];
  if (subject) params.push(`subject=${encodeURIComponent(subject)}`);
  if (body) params.push(`body=${encodeURIComponent(body.replace(/\r?\n/g, '\r\n'))}`);
  return `mailto:${to.split(',').map((a) => encodeURIComponent(a.trim())).join(',').replace(/%40/g, '@')}${params.length ? `?${params.join('&')}` : ''}`;
}
