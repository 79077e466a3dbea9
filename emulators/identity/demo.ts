// The demo logins of emulators/data/identity/users.json (printed by npm start and npm run dev).
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readSeed } from './store.ts';

export const DEMO_USERS_FILE = join(dirname(fileURLToPath(import.meta.url)), '../data/identity/users.json');

/** The documented demo logins of the seed (the *komax.test ones, not the organisations' other members) and their one password. */
export function demoLogins(file = DEMO_USERS_FILE): { password: string; users: string[] } {
  const seed = readSeed(file);
  return { password: seed.demoPassword, users: seed.users.map((u) => u.userName).filter((name) => /@(demo\.)?komax\.test$/.test(name)) };
}
