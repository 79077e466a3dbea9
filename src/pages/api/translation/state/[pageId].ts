export { translationState as GET } from '../../../../features/editor/api.server.ts';
