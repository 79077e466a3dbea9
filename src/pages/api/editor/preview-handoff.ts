import { apiRoute } from '../../../lib/http/endpoint.ts';
import { previewHandoff } from '../../../features/editor/handoff.server.ts';

/** GET /api/editor/preview-handoff?to=…: see previewHandoff. Other methods: 405. */
export const { GET, ALL } = apiRoute({ GET: previewHandoff });
