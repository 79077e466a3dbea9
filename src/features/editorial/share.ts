import { mailtoLink } from '../platform/mailto.ts';

export type ShareNetwork = 'linkedin' | 'x' | 'facebook' | 'email';

export interface ShareLink {
  network: ShareNetwork;
  href: string;
}

/**
 * Plain share links for a page (no third-party scripts): LinkedIn, X, Facebook and e-mail.
 * @example shareLinks('https://komax.example/en/stories/x', 'Title')[0] // { network: 'linkedin', href: 'https://www.linkedin.com/sharing/share-offsite/?url=…' }
 */
export function shareLinks(url: string, title: string, emailBody = url): ShareLink[] {
  const u = encodeURIComponent(url);
  return [
    { network: 'linkedin', href: `https://www.linkedin.com/sharing/share-offsite/?url=${u}` },
    { network: 'x', href: `https://x.com/intent/post?url=${u}&text=${encodeURIComponent(title)}` },
    { network: 'facebook', href: `https://www.facebook.com/sharer/sharer.php?u=${u}` },
    { network: 'email', href: mailtoLink('', title, emailBody) },
  ];
}
