import { describe, expect, it } from 'vitest';
import { findJava, isCheckerLag, reportErrors, type VnuMessage } from './vnu.ts';

describe('findJava', () => {
  const only = (...paths: string[]) => (p: string) => paths.includes(p);

  it('prefers JAVA, and refuses one that is not executable instead of silently using another', () => {
    expect(findJava({ JAVA: '/opt/jre/bin/java', PATH: '/usr/bin' }, only('/opt/jre/bin/java', '/usr/bin/java'))).toBe('/opt/jre/bin/java');
    expect(() => findJava({ JAVA: '/nope' }, only('/usr/bin/java'))).toThrow(/JAVA=\/nope/);
  });

  it('takes java from PATH, then from Debian\'s usual places; none on a fresh machine', () => {
    expect(findJava({ PATH: '/opt/a:/opt/b' }, only('/opt/b/java', '/usr/bin/java'))).toBe('/opt/b/java');
    expect(findJava({ PATH: '/opt/a' }, only('/usr/lib/jvm/default-java/bin/java'))).toBe('/usr/lib/jvm/default-java/bin/java');
    expect(findJava({ PATH: '/opt/a' }, only())).toBeNull();
  });
});

describe('the checker\'s lags', () => {
  const error = (message: string, extract = ''): VnuMessage => ({ type: 'error', url: 'file:/tmp/p.html', message, extract });
  const blocking = 'A “link” element with a “blocking” attribute must have a “rel” attribute whose value is “stylesheet”.';

  it('leaves out the @view-transition at-rule (CSS View Transitions 2) and rel=expect blocking=render (HTML)', () => {
    expect(isCheckerLag(error('CSS: Unrecognized at-rule “@view-transition”', '}@view-transition{navig'))).toBe(true);
    expect(isCheckerLag(error(blocking, '"><link rel="expect" href="#main" blocking="render"><meta '))).toBe(true);
  });

  it('keeps the same message on other markup, and every other message', () => {
    expect(isCheckerLag(error(blocking, '<link rel="preload" href="/a.css" blocking="render">'))).toBe(false);
    expect(isCheckerLag(error('CSS: Unrecognized at-rule “@view-transitions”'))).toBe(false);
    expect(isCheckerLag(error('Stray start tag “script”.', '</html><script'))).toBe(false);
  });

  it('reports errors and fatal or non-document errors, never info or warnings', () => {
    const report = {
      messages: [
        error('Stray start tag “script”.'),
        error('CSS: Unrecognized at-rule “@view-transition”'),
        { type: 'info', subType: 'warning', message: 'Consider adding a “lang” attribute.' },
        { type: 'non-document-error', subType: 'io', message: 'File not found.' },
      ],
    };
    expect(reportErrors(report).map((m) => m.message)).toEqual(['Stray start tag “script”.', 'File not found.']);
  });
});
