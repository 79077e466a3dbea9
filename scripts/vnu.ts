// The W3C Nu HTML checker (npm `vnu-jar`) for the HTML validity test: finds (or installs) a Java
// runtime as scripts/browser.ts does for Chromium, runs the checker once over a folder of pages and
// reads its JSON report, leaving out only the messages where the checker lags behind a standard.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { delimiter, join } from 'node:path';
import { aptInstallCommand, isDebian, isExecutable, isRoot } from './system-package.ts';

/** Where a Java runtime usually lives when it is not on PATH (Debian's default-jre-headless first). */
export const JAVA_PATHS = ['/usr/bin/java', '/usr/lib/jvm/default-java/bin/java'];

/** `JAVA` when set (an error when it is not an executable), else java on PATH or in a usual place, else null. */
export function findJava(env: Record<string, string | undefined> = process.env, executable: (path: string) => boolean = isExecutable): string | null {
  if (env.JAVA) {
    if (!executable(env.JAVA)) throw new Error(`JAVA=${env.JAVA} is not an executable file`);
    return env.JAVA;
  }
  const onPath = (env.PATH ?? '').split(delimiter).filter(Boolean).map((dir) => join(dir, 'java'));
  return [...onPath, ...JAVA_PATHS].find((p) => executable(p)) ?? null;
}

export const NO_JAVA_MESSAGE = 'html-validity: no Java runtime found and none could be installed: install the Debian package (as root: apt-get update && apt-get install default-jre-headless), put java on PATH, or set JAVA to a java executable.';

/**
 * A Java runtime for the checker, installed first from Debian's `default-jre-headless` when it is
 * missing and this is root on Debian (one install at a time on the machine); null when none can be had.
 */
export function ensureJava(env: Record<string, string | undefined> = process.env): string | null {
  const found = findJava(env);
  if (found) return found;
  if (isRoot() && isDebian()) {
    console.log('html-validity: no Java runtime found; installing the Debian package "default-jre-headless" (apt-get update first)');
    // flock: another test process may be installing it right now; the second one then finds it.
    const script = `command -v java >/dev/null || [ -x /usr/bin/java ] || (${aptInstallCommand(['default-jre-headless'])})`;
    spawnSync('flock', ['/tmp/kmx-java-install.lock', 'sh', '-c', script], { stdio: 'inherit', timeout: 10 * 60_000 });
    return findJava(env);
  }
  return null;
}

/** The checker's jar: `VNU_JAR` when set, else the `vnu-jar` package's (its main export is the jar's path). */
export function vnuJar(env: Record<string, string | undefined> = process.env): string {
  if (env.VNU_JAR) return env.VNU_JAR;
  try {
    return String(createRequire(import.meta.url)('vnu-jar'));
  } catch {
    throw new Error('html-validity: the devDependency "vnu-jar" is not installed (npm install), and VNU_JAR does not name a vnu.jar');
  }
}

/** One message of the checker's JSON report (`--format json`). */
export interface VnuMessage {
  type: string;
  subType?: string;
  url?: string;
  message: string;
  extract?: string;
  lastLine?: number;
  lastColumn?: number;
}

/**
 * Messages where the checker lags behind a standard, each with what it matches exactly and the
 * standard that allows it. Nothing else is ever left out.
 */
export const CHECKER_LAGS: { message: string; extract?: RegExp; standard: string }[] = [
  {
    // CSS View Transitions Module Level 2 §3.1 defines the at-rule; the checker's CSS grammar predates it.
    message: 'CSS: Unrecognized at-rule “@view-transition”',
    standard: 'https://drafts.csswg.org/css-view-transitions-2/#view-transition-rule',
  },
  {
    // HTML: the link element's blocking attribute applies to rel=expect as well as stylesheet
    // (render-blocking until the element named by href is parsed); the checker knows only stylesheet.
    message: 'A “link” element with a “blocking” attribute must have a “rel” attribute whose value is “stylesheet”.',
    extract: /<link rel="expect" href="#[\w-]+" blocking="render">/,
    standard: 'https://html.spec.whatwg.org/multipage/links.html#link-type-expect',
  },
];

/** Whether a message is one of the {@link CHECKER_LAGS} (its exact text, and its markup where one is given). */
export function isCheckerLag(m: Pick<VnuMessage, 'message' | 'extract'>): boolean {
  return CHECKER_LAGS.some((lag) => lag.message === m.message && (!lag.extract || lag.extract.test(m.extract ?? '')));
}

/** The errors of a report (`--errors-only` still sends non-document errors, e.g. an unreadable file), lags left out. */
export function reportErrors(report: { messages: VnuMessage[] }): VnuMessage[] {
  return report.messages.filter((m) => (m.type === 'error' || m.subType === 'fatal' || m.type === 'non-document-error') && !isCheckerLag(m));
}

/**
 * Runs the checker once over every file (one JVM start for all pages) and returns its report.
 * The checker writes the JSON report to stderr and exits non-zero when it found errors.
 */
export function runVnu(java: string, jar: string, files: string[]): { messages: VnuMessage[] } {
  // The limit only catches a hung JVM (a synchronous call the test's own timeout cannot interrupt);
  // the check of ~70 pages takes seconds.
  const run = spawnSync(java, ['-jar', jar, '--format', 'json', '--errors-only', ...files], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, timeout: 10 * 60_000 });
  if (run.error) throw run.error;
  try {
    return JSON.parse(run.stderr) as { messages: VnuMessage[] };
  } catch {
    throw new Error(`the Nu HTML checker gave no JSON report (exit ${run.status}): ${run.stderr.slice(0, 2000)}`);
  }
}
