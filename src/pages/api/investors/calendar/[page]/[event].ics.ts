import { apiRoute } from '../../../../../lib/http/endpoint.ts';
import { calendarEvent } from '../../../../../features/investors/calendar-api.server.ts';

/** GET /api/investors/calendar/{pageId}/{eventId}.ics?l={locale}: see calendarEvent. */
export const { GET, ALL } = apiRoute({ GET: calendarEvent });
