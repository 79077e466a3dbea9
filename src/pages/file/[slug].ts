import { downloadFile } from '../../features/content-page/file-api.server.ts';

/** /file/{slug}?l={locale}&dl=true: see downloadFile. */
export const GET = downloadFile;
