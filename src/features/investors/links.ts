/**
 * The address of a financial-calendar event's .ics file (served on demand by
 * calendar-api.server.ts): the page holding the event, the event id and the page locale.
 *
 * @example calendarFileUrl('cmzu…', 'agm-2023', 'de-ch') // '/api/investors/calendar/cmzu…/agm-2023.ics?l=de-ch'
 */
export function calendarFileUrl(pageId: string, eventId: string, localeCode: string): string {
  return `/api/investors/calendar/${encodeURIComponent(pageId)}/${encodeURIComponent(eventId)}.ics?l=${encodeURIComponent(localeCode)}`;
}
