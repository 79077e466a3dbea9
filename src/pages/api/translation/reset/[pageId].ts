export { translationReset as POST, postOnly as GET } from '../../../../features/editor/api.server.ts';
