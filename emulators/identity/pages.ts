// The identity emulator's own pages (login, registration, signed out, errors) in the site's look.
// Their texts live here, not in the app's locales: the provider is another product. English and
// German; any other language falls back to English.
import type { FailedPolicyRequirement, PolicyRequirement } from './policy.ts';

export const PAGE_LANGUAGES = ['en', 'de'] as const;
export type PageLanguage = (typeof PAGE_LANGUAGES)[number];

const STRINGS = {
  en: {
    brand: 'myKomax',
    loginTitle: 'Sign in to myKomax',
    loginIntro: 'Sign in with your Komax account.',
    email: 'E-mail address',
    password: 'Password',
    signIn: 'Sign in',
    loginError: 'Incorrect e-mail address or password.',
    noAccount: 'No account yet?',
    register: 'Create an account',
    registerTitle: 'Create your Komax account',
    registerIntro: 'All fields are required.',
    givenName: 'First name',
    sn: 'Last name',
    passwordHint: '10 to 64 characters with at least one capital letter and one number; no spaces, no < > " and not your name or e-mail address.',
    create: 'Create account',
    errorSummary: 'Please correct the following:',
    registered: 'Your account was created. You can now sign in.',
    registerBusyTitle: 'Your account is being created',
    registerBusy: 'Your account is being created right now. Wait a moment, then send the form again: the account will not be created twice.',
    registeredTitle: 'Account created',
    signedOutTitle: 'Signed out',
    signedOut: 'You have been signed out.',
    errorTitle: 'Something went wrong',
    errorText: 'The sign-in could not be completed. Go back to the site and try again.',
    signingOut: 'Signing out…',
    continue: 'Continue',
    footer: 'Komax identity (local emulator)',
    policy: {
      REQUIRED: 'This field is required.',
      MIN_LENGTH: 'Use at least {minLength} characters.',
      MAX_LENGTH: 'Use at most {maxLength} characters.',
      AT_LEAST_X_CAPITAL_LETTERS: 'Use at least {numCaps} capital letter.',
      AT_LEAST_X_NUMBERS: 'Use at least {numNums} number.',
      CANNOT_CONTAIN_CHARACTERS: 'Do not use these characters: {forbiddenChars}',
      CANNOT_CONTAIN_DUPLICATES: 'Do not repeat a character three times in a row ({duplicate}).',
      CANNOT_CONTAIN_OTHERS: 'Do not use your name or your e-mail address.',
      MATCH_REGEXP: 'Do not use spaces.',
      UNIQUE: 'An account with this e-mail address already exists.',
      VALID_EMAIL_ADDRESS_FORMAT: 'Enter a valid e-mail address.',
      VALID_NAME_FORMAT: 'Use letters, spaces, hyphens and apostrophes only.',
      VALID_PHONE_FORMAT: 'Enter a valid telephone number.',
    } as Record<string, string>,
  },
  de: {
    brand: 'myKomax',
    loginTitle: 'Bei myKomax anmelden',
    loginIntro: 'Melden Sie sich mit Ihrem Komax-Konto an.',
    email: 'E-Mail-Adresse',
    password: 'Passwort',
    signIn: 'Anmelden',
    loginError: 'E-Mail-Adresse oder Passwort ist falsch.',
    noAccount: 'Noch kein Konto?',
    register: 'Konto erstellen',
    registerTitle: 'Ihr Komax-Konto erstellen',
    registerIntro: 'Alle Felder sind Pflichtfelder.',
    givenName: 'Vorname',
    sn: 'Nachname',
    passwordHint: '10 bis 64 Zeichen mit mindestens einem Grossbuchstaben und einer Ziffer; keine Leerzeichen, kein < > " und weder Ihr Name noch Ihre E-Mail-Adresse.',
    create: 'Konto erstellen',
    errorSummary: 'Bitte korrigieren Sie Folgendes:',
    registered: 'Ihr Konto wurde erstellt. Sie können sich jetzt anmelden.',
    registerBusyTitle: 'Ihr Konto wird erstellt',
    registerBusy: 'Ihr Konto wird gerade erstellt. Warten Sie einen Moment und senden Sie das Formular dann erneut: Das Konto wird nicht doppelt erstellt.',
    registeredTitle: 'Konto erstellt',
    signedOutTitle: 'Abgemeldet',
    signedOut: 'Sie wurden abgemeldet.',
    errorTitle: 'Etwas ist schiefgelaufen',
    errorText: 'Die Anmeldung konnte nicht abgeschlossen werden. Kehren Sie zur Website zurück und versuchen Sie es erneut.',
    signingOut: 'Abmeldung…',
    continue: 'Weiter',
    footer: 'Komax-Identität (lokaler Emulator)',
    policy: {
      REQUIRED: 'Dieses Feld ist erforderlich.',
      MIN_LENGTH: 'Verwenden Sie mindestens {minLength} Zeichen.',
      MAX_LENGTH: 'Verwenden Sie höchstens {maxLength} Zeichen.',
      AT_LEAST_X_CAPITAL_LETTERS: 'Verwenden Sie mindestens {numCaps} Grossbuchstaben.',
      AT_LEAST_X_NUMBERS: 'Verwenden Sie mindestens {numNums} Ziffer.',
      CANNOT_CONTAIN_CHARACTERS: 'Verwenden Sie diese Zeichen nicht: {forbiddenChars}',
      CANNOT_CONTAIN_DUPLICATES: 'Wiederholen Sie kein Zeichen dreimal hintereinander ({duplicate}).',
      CANNOT_CONTAIN_OTHERS: 'Verwenden Sie weder Ihren Namen noch Ihre E-Mail-Adresse.',
      MATCH_REGEXP: 'Verwenden Sie keine Leerzeichen.',
      UNIQUE: 'Es gibt bereits ein Konto mit dieser E-Mail-Adresse.',
      VALID_EMAIL_ADDRESS_FORMAT: 'Geben Sie eine gültige E-Mail-Adresse ein.',
      VALID_NAME_FORMAT: 'Verwenden Sie nur Buchstaben, Leerzeichen, Bindestriche und Apostrophe.',
      VALID_PHONE_FORMAT: 'Geben Sie eine gültige Telefonnummer ein.',
    } as Record<string, string>,
  },
} satisfies Record<PageLanguage, unknown>;

/** The first supported language of a space- or comma-separated preference list (ui_locales, Accept-Language); English otherwise. */
export function pageLanguage(...preferences: (string | null | undefined)[]): PageLanguage {
  for (const list of preferences) {
    for (const tag of (list ?? '').split(/[\s,]+/)) {
      const lang = tag.split(/[-_;]/)[0]?.toLowerCase();
      if (lang === 'en' || lang === 'de') return lang;
    }
  }
  return 'en';
}

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

const CSS = `
:root{--c-primary:#0a3d62;--c-primary-strong:#072b46;--c-accent:#9a5800;--c-text:#1b2330;--c-muted:#566173;--c-border:#d8dee7;--c-surface-alt:#f3f5f8;--c-focus:#1a73e8;--c-error:#b3261e;--c-success:#1d7a3c}
*,*::before,*::after{box-sizing:border-box}
body{margin:0;min-height:100vh;display:flex;flex-direction:column;font-family:"Inter","Segoe UI",system-ui,-apple-system,"Helvetica Neue",Arial,sans-serif;font-size:1rem;line-height:1.6;color:var(--c-text);background:var(--c-surface-alt)}
header{background:var(--c-primary);color:#fff}
header .bar{max-width:1180px;margin:0 auto;padding:1rem 1.5rem;display:flex;align-items:baseline;gap:.75rem}
.logo{font-weight:800;font-size:1.5rem;letter-spacing:.12em}
.product{font-size:1rem;opacity:.9}
main{flex:1 0 auto;display:flex;justify-content:center;align-items:flex-start;padding:2rem 1rem}
.card{width:100%;max-width:28rem;background:#fff;border:1px solid var(--c-border);border-radius:12px;box-shadow:0 1px 2px rgb(16 24 40/6%),0 4px 16px rgb(16 24 40/8%);padding:2rem}
h1{font-size:1.6rem;line-height:1.2;margin:0 0 .5rem}
p{margin:0 0 1rem}
.intro{color:var(--c-muted)}
.field{margin:0 0 1.25rem}
label{display:block;font-weight:600;margin:0 0 .25rem}
input{width:100%;font:inherit;padding:.6rem .75rem;border:1px solid #8a94a6;border-radius:6px;background:#fff;color:inherit}
input[aria-invalid="true"]{border-color:var(--c-error);border-width:2px}
.hint{display:block;color:var(--c-muted);font-size:.875rem;margin:0 0 .35rem}
.field-error{color:var(--c-error);font-size:.9rem;margin:.35rem 0 0;padding:0;list-style:none}
.alert{border:2px solid var(--c-error);border-radius:6px;padding:.75rem 1rem;margin:0 0 1.25rem;color:var(--c-error);font-weight:600}
.alert ul{margin:.25rem 0 0;padding-left:1.25rem;font-weight:400}
.alert a{color:var(--c-error)}
.success{border-color:var(--c-success);color:var(--c-success)}
button{font:inherit;font-weight:600;width:100%;padding:.7rem 1rem;border:0;border-radius:6px;background:var(--c-primary);color:#fff;cursor:pointer}
button:hover{background:var(--c-primary-strong)}
a{color:var(--c-primary);text-underline-offset:.2em}
a:hover{color:var(--c-accent)}
:focus-visible{outline:3px solid var(--c-focus);outline-offset:2px}
.more{margin:1.5rem 0 0;padding-top:1rem;border-top:1px solid var(--c-border)}
footer{color:var(--c-muted);font-size:.875rem;text-align:center;padding:1rem}
@media (max-width:30rem){.card{padding:1.25rem;border-radius:0;border-left:0;border-right:0}main{padding:1rem 0}}
`;

export function page(lang: PageLanguage, title: string, body: string, extraHead = ''): string {
  const t = STRINGS[lang];
  return `<!doctype html>
<html lang="${lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)} – Komax</title>
<style>${CSS}</style>${extraHead}
</head>
<body>
<header><div class="bar"><span class="logo" aria-hidden="true">KOMAX</span><span class="product">${t.brand}</span></div></header>
<main><div class="card">
${body}
</div></main>
<footer>${t.footer}</footer>
</body>
</html>`;
}

export function strings(lang: PageLanguage) {
  return STRINGS[lang];
}

/** The message of one failed requirement, its parameters filled in. */
export function requirementMessage(lang: PageLanguage, requirement: PolicyRequirement): string {
  const template = STRINGS[lang].policy[requirement.policyRequirement] ?? requirement.policyRequirement;
  return template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = requirement.params?.[name];
    return Array.isArray(value) ? value.join(' ') : String(value ?? '');
  });
}

export interface LoginView {
  lang: PageLanguage;
  action: string;
  email?: string;
  failed?: boolean;
  registerUrl?: string;
}

export function loginPage(view: LoginView): string {
  const t = STRINGS[view.lang];
  const invalid = view.failed ? ' aria-invalid="true" aria-describedby="login-error"' : '';
  return page(view.lang, t.loginTitle, `
<h1>${t.loginTitle}</h1>
<p class="intro">${t.loginIntro}</p>
${view.failed ? `<p id="login-error" class="alert" role="alert">${t.loginError}</p>` : ''}
<form method="post" action="${escapeHtml(view.action)}" novalidate>
<div class="field"><label for="username">${t.email}</label>
<input id="username" name="username" type="email" inputmode="email" autocomplete="username" required value="${escapeHtml(view.email ?? '')}"${invalid}${view.failed || !view.email ? ' autofocus' : ''}></div>
<div class="field"><label for="password">${t.password}</label>
<input id="password" name="password" type="password" autocomplete="current-password" required${invalid}></div>
<button type="submit">${t.signIn}</button>
</form>
${view.registerUrl ? `<p class="more">${t.noAccount} <a href="${escapeHtml(view.registerUrl)}">${t.register}</a></p>` : ''}`);
}

export interface RegisterView {
  lang: PageLanguage;
  action: string;
  csrf: string;
  /** This rendering's idempotency key: the same form sent twice creates the account once. */
  idempotencyKey: string;
  values: { givenName: string; sn: string; mail: string };
  failures?: FailedPolicyRequirement[];
}

export function registerPage(view: RegisterView): string {
  const t = STRINGS[view.lang];
  const failures = new Map((view.failures ?? []).map((f) => [f.property, f.policyRequirements]));
  const labels: Record<string, string> = { givenName: t.givenName, sn: t.sn, mail: t.email, password: t.password };
  const field = (name: string, type: string, autocomplete: string, value: string, hint?: string) => {
    const failed = failures.get(name);
    const describedBy = [hint ? `${name}-hint` : '', failed ? `${name}-error` : ''].filter(Boolean).join(' ');
    return `<div class="field"><label for="${name}">${labels[name]}</label>
${hint ? `<span class="hint" id="${name}-hint">${hint}</span>` : ''}<input id="${name}" name="${name}" type="${type}" autocomplete="${autocomplete}" required value="${escapeHtml(value)}"${describedBy ? ` aria-describedby="${describedBy}"` : ''}${failed ? ' aria-invalid="true"' : ''}>
${failed ? `<ul class="field-error" id="${name}-error">${failed.map((r) => `<li>${escapeHtml(requirementMessage(view.lang, r))}</li>`).join('')}</ul>` : ''}</div>`;
  };
  const summary = view.failures?.length
    ? `<div class="alert" role="alert" tabindex="-1" id="error-summary" autofocus><p>${t.errorSummary}</p><ul>${view.failures.map((f) => `<li><a href="#${f.property}">${labels[f.property] ?? f.property}: ${escapeHtml(f.policyRequirements.map((r) => requirementMessage(view.lang, r)).join(' '))}</a></li>`).join('')}</ul></div>`
    : '';
  return page(view.lang, t.registerTitle, `
<h1>${t.registerTitle}</h1>
<p class="intro">${t.registerIntro}</p>
${summary}
<form method="post" action="${escapeHtml(view.action)}" novalidate>
<input type="hidden" name="csrf" value="${escapeHtml(view.csrf)}">
<input type="hidden" name="idempotencyKey" value="${escapeHtml(view.idempotencyKey)}">
${field('givenName', 'text', 'given-name', view.values.givenName)}
${field('sn', 'text', 'family-name', view.values.sn)}
${field('mail', 'email', 'email', view.values.mail)}
${field('password', 'password', 'new-password', '', t.passwordHint)}
<button type="submit">${t.create}</button>
</form>`);
}

export function messagePage(lang: PageLanguage, title: string, text: string, link?: { href: string; text: string }): string {
  return page(lang, title, `<h1>${escapeHtml(title)}</h1>
<p>${escapeHtml(text)}</p>${link ? `<p><a href="${escapeHtml(link.href)}">${escapeHtml(link.text)}</a></p>` : ''}`);
}
