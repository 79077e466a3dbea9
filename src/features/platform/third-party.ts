/** Injects the configured cookie-consent, monitoring and tag-manager scripts (none by default). */
export function loadThirdPartyScripts(config: DOMStringMap): void {
  const add = (src: string, attrs: Record<string, string> = {}) => {
    const s = document.createElement('script');
    s.src = src;
    s.async = true;
    for (const [k, v] of Object.entries(attrs)) s.setAttribute(k, v);
    document.head.append(s);
  };
  if (config.consentSrc) add(config.consentSrc, config.consentId ? { 'data-domain-script': config.consentId } : {});
  if (config.monitoringSrc) add(config.monitoringSrc);
  if (config.gtmId && /^GTM-[A-Z0-9]+$/.test(config.gtmId)) {
    window.dataLayer.push({ 'gtm.start': Date.now(), event: 'gtm.js' });
    add(`https://www.googletagmanager.com/gtm.js?id=${encodeURIComponent(config.gtmId)}`);
  }
}
