export { publicNavigation as GET } from '../../../../features/editor/api.server.ts';
