import type { ContentModule, Page } from '../../lib/content/index.ts';
import type { SearchText } from '../platform/page-model.ts';
import { investorModuleText } from '../investors/search-text.ts';
import type { InjectedEntry } from '../catalogue/injection.ts';

/** The readable text of content modules, for the search index. */
export function modulesText(modules: ContentModule[]): string {
  const parts: string[] = [];
  for (const m of modules) {
    switch (m.type) {
      case 'hero': parts.push(m.overline ?? '', m.title, m.text ?? ''); break;
      case 'richText': parts.push(m.title ?? '', ...m.blocks.map((b) => (b.kind === 'list' ? b.items.join(' ') : b.text))); break;
      case 'imageText': parts.push(m.title ?? '', ...m.text); break;
      case 'teaserGrid': parts.push(m.title ?? '', ...m.items.flatMap((i) => [i.title, i.text ?? ''])); break;
      case 'callToAction': parts.push(m.title, m.text ?? ''); break;
      case 'video': parts.push(m.title ?? '', m.caption ?? ''); break;
      case 'asideImage': parts.push(m.title ?? '', ...m.text); break;
      case 'asideVideo': parts.push(m.title ?? '', ...m.text, m.caption ?? ''); break;
      case 'accordion': parts.push(m.title ?? '', ...m.items.flatMap((i) => [i.title, i.text])); break;
      case 'downloads': parts.push(m.title ?? '', ...m.files.map((f) => f.title)); break;
      case 'quote': parts.push(m.text, m.author, m.role ?? ''); break;
      case 'dividendPolicy': case 'shareDistribution': case 'keyData': case 'sharePrice': case 'totalReturn':
      case 'shareholders': case 'financialCalendar': case 'annualFigures': case 'annualReport':
        parts.push(...investorModuleText(m)); break;
      case 'form': parts.push(m.title ?? '', m.text ?? '', m.file?.title ?? ''); break;
      case 'locationsDirectory': parts.push(m.title ?? '', m.text ?? '', ...(m.locations ?? []).flatMap((l) => [`${l.name}, ${l.address.city}`, ...l.contacts.map((c) => c.name)])); break;
    }
  }
  return parts.filter(Boolean).join('\n');
}

/** A page's search text; the product or service it shows is part of it. */
export function pageSearchText(page: Page, injected?: Pick<InjectedEntry, 'name' | 'shortDescription'> | null): SearchText {
  const entry = injected ? [injected.name, injected.shortDescription ?? ''].filter(Boolean).join('\n') : '';
  return { title: page.title, description: page.description ?? '', body: [modulesText(page.modules), entry].filter(Boolean).join('\n') };
}
