import type { InvestorModule } from '../../lib/content/index.ts';

/**
 * The words of an investor module the site search should find: headings, texts, row labels,
 * shareholder names, event titles and places, the report's title. Figures are left out (a search
 * for "5.00" helps nobody, and they would be in one locale's format only).
 */
export function investorModuleText(m: InvestorModule): string[] {
  const base = [m.title, ...m.text];
  switch (m.type) {
    case 'dividendPolicy': case 'shareDistribution': case 'totalReturn':
      return m.type === 'totalReturn' ? [...base, ...m.series.map((s) => s.name)] : base;
    case 'keyData': return [...base, ...m.items.flatMap((i) => (i.kind === 'text' ? [i.label, i.text] : [i.label]))];
    case 'sharePrice': return [...base, m.listing ?? ''];
    case 'shareholders': return [...base, ...m.holders.map((h) => h.name)];
    case 'financialCalendar': return [...base, ...m.events.flatMap((e) => [e.title, e.location ?? '', e.description ?? ''])];
    case 'annualFigures': return [...base, m.unitNote ?? '', ...m.rows.map((r) => r.label)];
    case 'annualReport': return [...base, m.file.title];
  }
}
