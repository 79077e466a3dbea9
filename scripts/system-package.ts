// What the test setup needs to find or install a system program (Chromium for the e2e tests,
// redis-server for the shared-state tests) on a fresh machine.
import { accessSync, constants, existsSync, readFileSync } from 'node:fs';

/** True when the file exists and may be executed. */
export function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return existsSync(path);
  } catch {
    return false;
  }
}

/** Whether this is Debian or a derivative (where apt-get installs Debian's packages). */
export function isDebian(): boolean {
  try {
    return /^ID(?:_LIKE)?=.*debian/m.test(readFileSync('/etc/os-release', 'utf8'));
  } catch {
    return false;
  }
}

export const isRoot = (): boolean => process.getuid?.() === 0;

/** The shell command that installs Debian packages quietly (the package lists refreshed first). */
export function aptInstallCommand(packages: string[]): string {
  return `apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq ${packages.join(' ')} >/dev/null`;
}
