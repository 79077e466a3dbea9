export { previewHandoff as GET } from '../../../features/editor/handoff.server.ts';
