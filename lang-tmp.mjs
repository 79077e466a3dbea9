import { chromium } from 'playwright';
const b = await chromium.launch({ executablePath: '/usr/bin/chromium' });
const p = await b.newPage();
for (const path of ['/ja', '/ja/about-us', '/ja/stories', '/ja/stories/carpatia-doubles-crimping-output', '/ja/media-releases', '/ja/products/wire-processing', '/ja/products/wire-processing/cut-strip/kappa-310', '/ja/investors', '/zh/services/training/operator-training']) {
  const res = await p.goto('http://localhost:4321' + path);
  const found = await p.evaluate(() => {
    const out = [];
    const w = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = w.nextNode(); n; n = w.nextNode()) {
      const t = n.textContent.trim();
      if (t.split(/\s+/).filter((x) => /^[A-Za-z]{3,}$/.test(x)).length < 2) continue;
      const el = n.parentElement;
      if (el.closest('script,style,[hidden],dialog,template') ) continue;
      const lang = el.closest('[lang]').getAttribute('lang');
      if (lang !== 'en') out.push(`${el.tagName.toLowerCase()}.${el.className}: ${t.slice(0, 60)}`);
    }
    return out;
  });
  console.log(path, res.status(), found.length); for (const f of found.slice(0, 8)) console.log('   ', f);
}
await b.close();
