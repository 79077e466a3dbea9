export { logout as POST } from '../../../features/editor/auth.server.ts';
