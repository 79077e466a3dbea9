export { editorNavigation as GET } from '../../../../features/editor/api.server.ts';
