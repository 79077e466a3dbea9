export { postCspReport as POST, cspReportPostOnly as ALL } from '../../features/csp-report/api.server.ts';
