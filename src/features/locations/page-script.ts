import { fill } from '../../i18n/island.ts';
import { filterQuery, matchesFilter, parseFilter, ALL_COUNTRIES } from './filter.ts';
import { boxString, fitBox, markerRadius, parseBox } from './viewbox.ts';

/**
 * The directory's filters in place (progressive enhancement of the plain GET form): every entry
 * and marker is in the page, so a change of a filter only shows and hides them with the same
 * rules the server applied (filter.ts), announces the number of results in the status region,
 * zooms and relabels the map and puts the filter into the address (history.replaceState), so a reload or
 * a shared link renders the same result on the server.
 */
export function initLocationsDirectory(doc: Document = document): void {
  for (const root of doc.querySelectorAll<HTMLElement>('[data-locations-directory]')) setUp(root);
}

/** From this width on every card shows its facts (locations.css); below it, each is a toggle. */
const OPEN_CARDS = '(min-width: 720px)';

/** Opens the cards' facts on wide screens (so assistive technology hears them open, as they show). */
function openCardsWhenWide(root: HTMLElement): void {
  const wide = matchMedia(OPEN_CARDS);
  const sync = () => { if (wide.matches) for (const d of root.querySelectorAll<HTMLDetailsElement>('details.location__more')) d.open = true; };
  sync();
  wide.addEventListener('change', sync);
}

function setUp(root: HTMLElement): void {
  openCardsWhenWide(root);
  const form = root.querySelector<HTMLFormElement>('form[data-locations-filter]');
  const status = root.querySelector<HTMLElement>('[data-locations-status]');
  const empty = root.querySelector<HTMLElement>('[data-locations-empty]');
  const map = root.querySelector<SVGElement>('[data-locations-map]');
  if (!form || !status || !empty) return;
  const defaultCountry = root.dataset.defaultCountry || null;
  const cards = [...root.querySelectorAll<HTMLElement>('[data-location]')];
  const markers = new Map([...root.querySelectorAll<SVGElement>('[data-marker]')].map((m) => [m.dataset.marker ?? '', m]));

  const apply = () => {
    const filter = formFilter(form, defaultCountry);
    let count = 0;
    for (const card of cards) {
      const d = card.dataset;
      const shown = matchesFilter({ name: d.name ?? '', city: d.city ?? '', type: d.type ?? '', countryCode: d.country ?? '', brandIds: (d.brands ?? '').split(' ').filter(Boolean) }, filter);
      card.hidden = !shown;
      const marker = markers.get(d.location ?? '');
      if (shown) marker?.removeAttribute('display');
      else marker?.setAttribute('display', 'none');
      if (shown) count++;
    }
    status.textContent = fill(status.dataset.template ?? '{{count}}', { count });
    if (map?.dataset.template) map.setAttribute('aria-label', fill(map.dataset.template, { count }));
    if (map?.dataset.frame) zoom(map, map.dataset.frame, [...markers.values()]);
    empty.hidden = count > 0;
    history.replaceState(history.state, '', `${location.pathname}${filterQuery(filter, defaultCountry)}${location.hash}`);
  };

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    apply();
  });
  form.addEventListener('change', apply);
  form.addEventListener('input', (event) => {
    if ((event.target as HTMLInputElement | null)?.name === 'q') apply();
  });
  root.querySelector<HTMLAnchorElement>('[data-locations-reset]')?.addEventListener('click', (event) => {
    event.preventDefault();
    for (const [name, value] of [['country', defaultCountry ?? ALL_COUNTRIES], ['type', ''], ['brand', ''], ['q', '']] as const) {
      const field = form.elements.namedItem(name) as HTMLInputElement | HTMLSelectElement | null;
      if (field) field.value = value;
    }
    apply();
  });
  // A filter chosen before this script ran (a slow connection, or the browser restoring the form
  // on back navigation) fired its change event with nobody listening: show its result now.
  if (filterQuery(formFilter(form, defaultCountry), defaultCountry) !== filterQuery(parseFilter(new URLSearchParams(location.search), defaultCountry), defaultCountry)) apply();
}

function formFilter(form: HTMLFormElement, defaultCountry: string | null) {
  return parseFilter(new URLSearchParams(new FormData(form) as unknown as Record<string, string>), defaultCountry);
}

/** Frames the visible markers (viewbox.ts, as the server did) and keeps their size on screen. */
function zoom(map: SVGElement, frameViewBox: string, markers: SVGElement[]): void {
  const frame = parseBox(frameViewBox);
  const visible = markers.filter((m) => m.getAttribute('display') !== 'none').map((m) => ({ x: Number(m.getAttribute('cx')), y: Number(m.getAttribute('cy')) }));
  const box = fitBox(visible, frame);
  map.setAttribute('viewBox', boxString(box));
  const r = String(markerRadius(box, frame));
  for (const m of markers) m.setAttribute('r', r);
}
