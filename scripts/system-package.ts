// What the test setup needs to find or install a system program (Chromium for the e2e tests,
// redis-server for the shared-state tests) on a fresh machine.
import { spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

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

/** A program on PATH or at one of `paths`, or null. */
export function findProgram(name: string, paths: readonly string[], path = process.env.PATH ?? ''): string | null {
  const onPath = path.split(':').filter(Boolean).map((dir) => `${dir}/${name}`);
  return [...onPath, ...paths].find((p) => isExecutable(p)) ?? null;
}

/**
 * A program from a Debian package (nginx from nginx-light, wrk): `configured` when given (an error
 * when it is not an executable, so a typo is not silently replaced), else found, else installed
 * when this is root on Debian (one install at a time on the machine), else an error saying how.
 */
export function ensureProgram(opts: { name: string; pkg: string; paths: readonly string[]; configured?: string; variable?: string }): string {
  if (opts.configured) {
    if (!isExecutable(opts.configured)) throw new Error(`${opts.variable ?? opts.name}=${opts.configured} is not an executable file`);
    return opts.configured;
  }
  const found = findProgram(opts.name, opts.paths);
  if (found) return found;
  if (isRoot() && isDebian()) {
    console.log(`${opts.name}: not found; installing the Debian package "${opts.pkg}" (apt-get update first)`);
    const script = `command -v ${opts.name} >/dev/null || (${aptInstallCommand([opts.pkg])})`;
    spawnSync('flock', [`/tmp/kmx-${opts.pkg}-install.lock`, 'sh', '-c', script], { stdio: 'inherit', timeout: 10 * 60_000 });
    const installed = findProgram(opts.name, opts.paths);
    if (installed) return installed;
  }
  throw new Error(`${opts.name} not found and it could not be installed: install the Debian package "${opts.pkg}" (as root: apt-get install ${opts.pkg})${opts.variable ? ` or set ${opts.variable} to the program` : ''}`);
}

/** nginx (Debian's nginx-light; NGINX_PATH to use another). */
export const ensureNginx = (configured = process.env.NGINX_PATH): string =>
  ensureProgram({ name: 'nginx', pkg: 'nginx-light', paths: ['/usr/sbin/nginx', '/usr/local/sbin/nginx', '/usr/local/nginx/sbin/nginx'], configured, variable: 'NGINX_PATH' });

/** wrk, the load generator of the benchmarks (Debian's wrk). */
export const ensureWrk = (): string => ensureProgram({ name: 'wrk', pkg: 'wrk', paths: ['/usr/bin/wrk', '/usr/local/bin/wrk'] });

/** Where Debian's libnginx-mod-http-brotli-static puts the module. */
export const DEBIAN_BROTLI_STATIC = '/usr/lib/nginx/modules/ngx_http_brotli_static_module.so';

/**
 * The brotli_static module for `nginx` (the edge serves the prerender's `.br` siblings with it),
 * or null: then the edge sends gzip. Debian's libnginx-mod-http-brotli-static, installed when
 * missing as nginx-light is (root on Debian), and used only when this nginx loads it (a module
 * is built for one nginx version: another NGINX_PATH may refuse it).
 */
export function ensureBrotliStatic(nginx: string, module = DEBIAN_BROTLI_STATIC): string | null {
  const pkg = 'libnginx-mod-http-brotli-static';
  if (!existsSync(module) && isRoot() && isDebian()) {
    console.log(`nginx brotli: ${module} not found; installing the Debian package "${pkg}"`);
    spawnSync('flock', [`/tmp/kmx-${pkg}-install.lock`, 'sh', '-c', `test -e ${module} || (${aptInstallCommand([pkg])})`], { stdio: 'inherit', timeout: 10 * 60_000 });
  }
  if (!existsSync(module)) return null;
  const dir = mkdtempSync(join(tmpdir(), 'kmx-nginx-brotli-'));
  try {
    writeFileSync(join(dir, 'nginx.conf'), `load_module ${module};\npid ${dir}/nginx.pid;\nevents {}\nhttp { brotli_static on; }\n`);
    const test = spawnSync(nginx, ['-t', '-q', '-p', dir, '-c', join(dir, 'nginx.conf'), '-e', join(dir, 'error.log')], { encoding: 'utf8' });
    if (test.status === 0) return module;
    console.warn(`nginx brotli: ${nginx} does not load ${module} (${test.stderr.trim()}): the edge sends gzip`);
    return null;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
