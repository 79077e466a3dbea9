// Prints the scrypt hash of a password for EDITOR_PASSWORD_HASH (or a protected page's password in
// the content hub). The password is read from standard input, so it stays out of the shell history:
//   npm run -s hash-password            (type it, then Enter)
//   printf %s "$PASSWORD" | npm run -s hash-password
import { createInterface } from 'node:readline';
import { hashPassword } from '../src/lib/crypto/password.ts';

const lines = createInterface({ input: process.stdin, terminal: false });
if (process.stdin.isTTY) process.stderr.write('Password: ');
let password: string | undefined;
for await (const line of lines) {
  password = line;
  break;
}
lines.close();
if (!password) {
  process.stderr.write('No password given: type one, or pipe it in (printf %s "$PASSWORD" | npm run -s hash-password).\n');
  process.exit(1);
}
process.stdout.write(`${await hashPassword(password)}\n`);
