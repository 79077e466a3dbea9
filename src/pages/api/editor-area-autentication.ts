export { signIn as POST } from '../../features/editor/auth.server.ts';
