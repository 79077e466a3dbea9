/**
 * Site-search benchmark (embedded engine): `npm run bench:search`.
 *
 * Generates a deterministic multilingual corpus (default 50,000 pages over 11 languages and 4 sites,
 * Zipf-distributed vocabulary per language, inflected words, realistic title/description/body
 * lengths), builds and writes the indexes, loads them as the server does, and times 2,000 mixed
 * queries (whole words, one-letter typos, prefixes) through `search` and `suggest`.
 * Prints one table of figures; never fails on time. Memory is the V8 heap plus the array buffers
 * (the compact index files are held as buffers, outside the heap: both count against the budget).
 *
 * Environment: BENCH_DOCS (50000), BENCH_QUERIES (2000), BENCH_SEED (42), BENCH_DIR (a temp folder, removed
 * afterwards unless given), BENCH_VERBOSE=1 (also list the slowest queries), BENCH_THREADS (threads of
 * the build, default the machine's cores), SEARCH_MEMORY_BUDGET
 * (bytes the loaded indexes may hold, default 256 MiB).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { availableParallelism, loadavg } from 'node:os';
import { buildIndexesInThreads, DEFAULT_MEMORY_BUDGET, EmbeddedBackend, writeIndexes } from '../../src/lib/search/embedded.ts';
import { segment, type Language } from '../../src/lib/search/analysis.ts';
import type { SearchDocument } from '../../src/lib/search/types.ts';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const DOCS = Number(process.env.BENCH_DOCS ?? 50_000);
const QUERIES = Number(process.env.BENCH_QUERIES ?? 2_000);
const SEED = Number(process.env.BENCH_SEED ?? 42);
const WARMUP = 300;
/** BENCH_VERBOSE=1 lists the slowest queries. */
const VERBOSE = !!process.env.BENCH_VERBOSE;
/** Threads the build runs on (BENCH_THREADS; default the machine's cores, as the prerender's build). */
const THREADS = Number(process.env.BENCH_THREADS ?? availableParallelism());

// ---------------------------------------------------------------------------------------------
// Deterministic randomness

function mulberry32(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const rand = mulberry32(SEED);
const int = (min: number, max: number) => min + Math.floor(rand() * (max - min + 1));
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
function weighted<T>(entries: readonly [T, number][]): T {
  const total = entries.reduce((n, [, w]) => n + w, 0);
  let r = rand() * total;
  for (const [v, w] of entries) if ((r -= w) < 0) return v;
  return entries.at(-1)![0];
}

// ---------------------------------------------------------------------------------------------
// Vocabulary per language

interface LanguageSpec {
  onsets: string[];
  vowels: string[];
  codas: string[];
  suffixes: string[];
  /** Real domain words, the most frequent ones. */
  seed: string[];
  /** Function words sprinkled between content words. */
  glue: string[];
}

const LATIN: Record<Exclude<Language, 'zh' | 'ja'>, LanguageSpec> = {
  en: {
    onsets: ['b', 'c', 'd', 'f', 'g', 'h', 'l', 'm', 'n', 'p', 'r', 's', 't', 'v', 'w', 'br', 'cr', 'pr', 'st', 'tr', 'ch', 'sh', 'th', 'pl', 'gr'],
    vowels: ['a', 'e', 'i', 'o', 'u', 'ea', 'ou', 'ai', 'ee'],
    codas: ['', 'n', 'r', 's', 't', 'l', 'nd', 'st', 'ck', 'ng', 'm'],
    suffixes: ['', '', '', 's', 'ing', 'ed', 'er', 'ion', 'ly'],
    seed: ['machine', 'cable', 'processing', 'wire', 'harness', 'automation', 'crimping', 'solution', 'quality', 'service', 'production', 'stripping', 'terminal', 'connector', 'automotive', 'industry', 'innovation', 'precision', 'software', 'training', 'customer', 'efficiency', 'assembly', 'testing', 'measurement'],
    glue: ['the', 'and', 'of', 'for', 'with', 'in', 'to', 'a', 'our', 'is', 'on', 'by'],
  },
  de: {
    onsets: ['b', 'd', 'f', 'g', 'h', 'k', 'l', 'm', 'n', 'p', 'r', 's', 't', 'w', 'z', 'sch', 'st', 'sp', 'pf', 'br', 'gr', 'kr', 'tr', 'fl'],
    vowels: ['a', 'e', 'i', 'o', 'u', 'ä', 'ö', 'ü', 'ei', 'au', 'ie', 'eu'],
    codas: ['', 'n', 'r', 's', 't', 'ch', 'ck', 'ng', 'tz', 'ß', 'lt', 'nd', 'rk'],
    suffixes: ['', '', '', 'en', 'e', 'er', 'es', 'ung', 'ungen', 'lich', 'keit'],
    seed: ['Maschine', 'Maschinen', 'Kabel', 'Kabelverarbeitung', 'Lösung', 'Lösungen', 'Qualität', 'Automatisierung', 'Crimpen', 'Abisolieren', 'Kabelbaum', 'Fertigung', 'Produktion', 'Prüfung', 'Service', 'Kunden', 'Steckverbinder', 'Präzision', 'Schulung', 'Werkzeug', 'Anlage', 'Industrie', 'Effizienz', 'Messung', 'Entwicklung'],
    glue: ['die', 'der', 'und', 'für', 'mit', 'von', 'in', 'den', 'das', 'ist', 'auf', 'zur'],
  },
  fr: {
    onsets: ['b', 'c', 'd', 'f', 'g', 'l', 'm', 'n', 'p', 'r', 's', 't', 'v', 'ch', 'pr', 'tr', 'gr', 'br', 'qu'],
    vowels: ['a', 'e', 'i', 'o', 'u', 'é', 'è', 'ê', 'ou', 'ai', 'au', 'oi'],
    codas: ['', '', 'n', 'r', 's', 'l', 'nt', 'x', 'c'],
    suffixes: ['', '', 's', 'e', 'es', 'ment', 'tion', 'tions', 'eur', 'ées'],
    seed: ['machine', 'machines', 'câble', 'câbles', 'traitement', 'solution', 'solutions', 'qualité', 'automatisation', 'sertissage', 'dénudage', 'faisceau', 'production', 'contrôle', 'service', 'client', 'connecteur', 'précision', 'formation', 'outil', 'industrie', 'efficacité', 'mesure', 'développement', 'fiabilité'],
    glue: ['le', 'la', 'les', 'de', 'des', 'et', 'pour', 'avec', 'en', 'du', 'une', 'un'],
  },
  es: {
    onsets: ['b', 'c', 'd', 'f', 'g', 'l', 'm', 'n', 'p', 'r', 's', 't', 'v', 'ch', 'pr', 'tr', 'gr', 'bl', 'll'],
    vowels: ['a', 'e', 'i', 'o', 'u', 'á', 'é', 'í', 'ó', 'ia', 'ue', 'io'],
    codas: ['', '', 'n', 'r', 's', 'l', 'z'],
    suffixes: ['', '', 's', 'es', 'ción', 'ciones', 'ado', 'ada', 'mente'],
    seed: ['máquina', 'máquinas', 'cable', 'cables', 'procesamiento', 'solución', 'soluciones', 'calidad', 'automatización', 'engaste', 'pelado', 'mazo', 'producción', 'control', 'servicio', 'cliente', 'conector', 'precisión', 'formación', 'herramienta', 'industria', 'eficiencia', 'medición', 'desarrollo', 'fiabilidad'],
    glue: ['el', 'la', 'los', 'las', 'de', 'del', 'y', 'para', 'con', 'en', 'un', 'una'],
  },
  pt: {
    onsets: ['b', 'c', 'd', 'f', 'g', 'l', 'm', 'n', 'p', 'r', 's', 't', 'v', 'ch', 'pr', 'tr', 'gr', 'lh', 'nh'],
    vowels: ['a', 'e', 'i', 'o', 'u', 'ã', 'á', 'é', 'ê', 'ó', 'ão', 'ei'],
    codas: ['', '', 'n', 'r', 's', 'l', 'm'],
    suffixes: ['', '', 's', 'ção', 'ções', 'ado', 'ada', 'mente', 'dor'],
    seed: ['máquina', 'máquinas', 'cabo', 'cabos', 'processamento', 'solução', 'soluções', 'qualidade', 'automação', 'crimpagem', 'decapagem', 'chicote', 'produção', 'controle', 'serviço', 'cliente', 'conector', 'precisão', 'formação', 'ferramenta', 'indústria', 'eficiência', 'medição', 'desenvolvimento', 'confiabilidade'],
    glue: ['o', 'a', 'os', 'as', 'de', 'do', 'da', 'e', 'para', 'com', 'em', 'um'],
  },
  ro: {
    onsets: ['b', 'c', 'd', 'f', 'g', 'l', 'm', 'n', 'p', 'r', 's', 't', 'v', 'ș', 'ț', 'pr', 'tr', 'gr', 'st'],
    vowels: ['a', 'e', 'i', 'o', 'u', 'ă', 'â', 'î', 'ea', 'ia', 'oa'],
    codas: ['', '', 'n', 'r', 's', 'l', 't', 'ș'],
    suffixes: ['', '', 'ul', 'uri', 'ilor', 'ări', 'are', 'ii', 'ele'],
    seed: ['mașină', 'mașini', 'cablu', 'cabluri', 'prelucrare', 'soluție', 'soluții', 'calitate', 'automatizare', 'sertizare', 'dezizolare', 'fascicul', 'producție', 'control', 'service', 'client', 'conector', 'precizie', 'instruire', 'unealtă', 'industrie', 'eficiență', 'măsurare', 'dezvoltare', 'fiabilitate'],
    glue: ['și', 'de', 'la', 'în', 'cu', 'pentru', 'din', 'pe', 'o', 'un', 'al', 'care'],
  },
  hu: {
    onsets: ['b', 'd', 'f', 'g', 'h', 'k', 'l', 'm', 'n', 'p', 'r', 's', 't', 'v', 'sz', 'zs', 'gy', 'cs', 'ny', 'ty'],
    vowels: ['a', 'e', 'i', 'o', 'u', 'á', 'é', 'í', 'ó', 'ö', 'ő', 'ú', 'ü', 'ű'],
    codas: ['', 'n', 'r', 's', 'l', 't', 'k', 'sz', 'gy', 'ny'],
    suffixes: ['', '', 'ok', 'ek', 'ban', 'ben', 'nak', 'hoz', 'ás', 'és', 'ot'],
    seed: ['gép', 'gépek', 'kábel', 'kábelek', 'feldolgozás', 'megoldás', 'megoldások', 'minőség', 'automatizálás', 'krimpelés', 'csupaszítás', 'kábelköteg', 'gyártás', 'ellenőrzés', 'szolgáltatás', 'ügyfél', 'csatlakozó', 'pontosság', 'képzés', 'szerszám', 'ipar', 'hatékonyság', 'mérés', 'fejlesztés', 'megbízhatóság'],
    glue: ['a', 'az', 'és', 'egy', 'hogy', 'is', 'van', 'meg', 'mint', 'vagy', 'nem', 'de'],
  },
  cs: {
    onsets: ['b', 'd', 'h', 'k', 'l', 'm', 'n', 'p', 'r', 's', 't', 'v', 'z', 'č', 'ř', 'š', 'ž', 'pr', 'st', 'tr', 'kr', 'sk'],
    vowels: ['a', 'e', 'i', 'o', 'u', 'á', 'é', 'ě', 'í', 'ó', 'ú', 'ů', 'ý'],
    codas: ['', '', 'n', 'r', 's', 'l', 't', 'k', 'ch', 'ž', 'c'],
    suffixes: ['', '', 'y', 'u', 'ou', 'ami', 'ách', 'ní', 'ové', 'em'],
    seed: ['stroj', 'stroje', 'kabel', 'kabely', 'zpracování', 'řešení', 'kvalita', 'automatizace', 'krimpování', 'odizolování', 'svazek', 'výroba', 'kontrola', 'servis', 'zákazník', 'konektor', 'přesnost', 'školení', 'nástroj', 'průmysl', 'efektivita', 'měření', 'vývoj', 'spolehlivost', 'technologie'],
    glue: ['a', 'v', 'na', 'pro', 's', 'je', 'se', 'z', 'do', 'k', 'o', 'od'],
  },
  sk: {
    onsets: ['b', 'd', 'h', 'k', 'l', 'm', 'n', 'p', 'r', 's', 't', 'v', 'z', 'č', 'š', 'ž', 'ľ', 'pr', 'st', 'tr', 'kr', 'sk'],
    vowels: ['a', 'e', 'i', 'o', 'u', 'á', 'ä', 'é', 'í', 'ó', 'ô', 'ú', 'ý', 'ia', 'ie'],
    codas: ['', '', 'n', 'r', 's', 'l', 't', 'k', 'ch', 'ž', 'c'],
    suffixes: ['', '', 'y', 'u', 'ou', 'ami', 'ách', 'ie', 'ov', 'om'],
    seed: ['stroj', 'stroje', 'kábel', 'káble', 'spracovanie', 'riešenie', 'kvalita', 'automatizácia', 'krimpovanie', 'odizolovanie', 'zväzok', 'výroba', 'kontrola', 'servis', 'zákazník', 'konektor', 'presnosť', 'školenie', 'nástroj', 'priemysel', 'efektivita', 'meranie', 'vývoj', 'spoľahlivosť', 'technológia'],
    glue: ['a', 'v', 'na', 'pre', 's', 'je', 'sa', 'z', 'do', 'k', 'o', 'od'],
  },
};

const ZH_WORDS = ('机器 线缆 加工 解决方案 质量 自动化 压接 剥线 线束 生产 测试 服务 客户 连接器 精度 培训 工具 工业 效率 测量 开发 可靠性 汽车 '
  + '技术 创新 系统 设备 产品 公司 市场 全球 应用 标准 软件 数据 管理 安全 环境 能源 电动 车辆 航空 通信 医疗 电子 制造 工厂 流程 '
  + '优化 灵活 模块 集成 控制 监测 维护 支持 咨询 项目 合作 伙伴 经验 专业 团队 未来 发展 投资 研究 材料 导体 端子 绝缘 护套 '
  + '长度 直径 速度 成本 价格 交付 订单 库存 物流 包装 运输 检查 认证 文件 手册 下载 视频 新闻 活动 展会 联系 地址 电话 职业 招聘 '
  + '全自动 半自动 高性能 多功能 数字化 智能 网络 平台 接口 参数 程序 操作 界面 显示 屏幕 按钮 传感器 电机 气动 液压 模具 刀片 滚轮').split(' ');
const ZH_GLUE = ['的', '和', '在', '是', '与', '为', '我们', '提供', '以及', '通过'];

const JA_WORDS = ('機械 ケーブル 加工 ソリューション 品質 自動化 圧着 被覆 剥離 ハーネス 生産 試験 サービス 顧客 コネクタ 精度 研修 工具 産業 効率 測定 開発 信頼性 自動車 '
  + '技術 革新 システム 設備 製品 会社 市場 世界 用途 規格 ソフトウェア データ 管理 安全 環境 エネルギー 電気 車両 航空 通信 医療 電子 製造 工場 工程 '
  + '最適化 柔軟 モジュール 統合 制御 監視 保守 支援 相談 プロジェクト 協力 経験 専門 チーム 未来 発展 投資 研究 材料 導体 端子 絶縁 '
  + '長さ 直径 速度 費用 価格 納品 注文 在庫 物流 包装 輸送 検査 認証 文書 マニュアル ダウンロード ビデオ ニュース イベント 展示会 連絡 住所 電話 採用 '
  + '全自動 半自動 高性能 多機能 デジタル 知能 ネットワーク プラットフォーム インターフェース パラメータ プログラム 操作 画面 表示 ボタン センサー モーター 金型 刃').split(' ');
const JA_GLUE = ['の', 'を', 'に', 'は', 'で', 'と', 'が', 'します', 'です', 'ための'];

interface Vocabulary {
  words: string[];
  /** Cumulative Zipf weights over `words`. */
  cdf: Float64Array;
  glue: string[];
  cjk: boolean;
}

/**
 * Zipf–Mandelbrot rank frequencies, 1 / (rank + q)^s: the head is flatter than plain Zipf, as in
 * real text once the function words are counted apart (they are, in `glue`). With q = 20 the most
 * frequent content word makes ~0.7 % of the words and appears on most pages, like "machine" would.
 */
function zipfCdf(n: number, s = 1.05, q = 20): Float64Array {
  const cdf = new Float64Array(n);
  let sum = 0;
  for (let i = 0; i < n; i++) cdf[i] = sum += 1 / Math.pow(i + 1 + q, s);
  for (let i = 0; i < n; i++) cdf[i] = cdf[i]! / sum;
  return cdf;
}

function latinVocabulary(spec: LanguageSpec, stems: number): Vocabulary {
  const seen = new Set<string>(spec.seed.map((w) => w.toLowerCase()));
  const words = [...spec.seed];
  while (words.length < stems) {
    let w = '';
    const syllables = weighted<number>([[1, 1], [2, 4], [3, 4], [4, 2]]);
    for (let i = 0; i < syllables; i++) w += pick(spec.onsets) + pick(spec.vowels) + (i === syllables - 1 ? pick(spec.codas) : '');
    w += pick(spec.suffixes);
    if (w.length < 3 || seen.has(w)) continue;
    seen.add(w);
    words.push(rand() < 0.15 ? w[0]!.toUpperCase() + w.slice(1) : w);
  }
  return { words, cdf: zipfCdf(words.length), glue: spec.glue, cjk: false };
}

function cjkVocabulary(base: string[], glue: string[]): Vocabulary {
  // Compounds of two base words widen the vocabulary as real text has it.
  const words = [...base];
  const seen = new Set(words);
  while (words.length < base.length * 6) {
    const w = pick(base) + pick(base);
    if (!seen.has(w)) { seen.add(w); words.push(w); }
  }
  return { words, cdf: zipfCdf(words.length), glue, cjk: true };
}

const VOCAB_STEMS = 20_000;
const vocabularies = new Map<Language, Vocabulary>();
for (const [lang, spec] of Object.entries(LATIN) as [Language, LanguageSpec][]) vocabularies.set(lang, latinVocabulary(spec, VOCAB_STEMS));
vocabularies.set('zh', cjkVocabulary(ZH_WORDS, ZH_GLUE));
vocabularies.set('ja', cjkVocabulary(JA_WORDS, JA_GLUE));

function word(v: Vocabulary): string {
  const r = rand();
  let lo = 0;
  let hi = v.cdf.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (v.cdf[mid]! < r) lo = mid + 1;
    else hi = mid;
  }
  return v.words[lo]!;
}

function sentence(v: Vocabulary, words: number): string {
  const parts: string[] = [];
  for (let i = 0; i < words; i++) {
    parts.push(rand() < 0.3 ? pick(v.glue) : word(v));
    if (!v.cjk && rand() < 0.03) parts.push(String(int(2, 9999)));
  }
  if (v.cjk) return parts.join('') + '。';
  const s = parts.join(' ');
  return s[0]!.toUpperCase() + s.slice(1) + '.';
}

function text(v: Vocabulary, words: number): string {
  const out: string[] = [];
  let left = words;
  while (left > 0) {
    const n = Math.min(left, int(6, 22));
    out.push(sentence(v, n));
    left -= n;
  }
  return out.join(v.cjk ? '' : ' ');
}

// ---------------------------------------------------------------------------------------------
// Corpus

const LANGUAGE_SHARE: [Language, number][] = [['en', 20], ['de', 15], ['fr', 8], ['es', 8], ['pt', 7], ['zh', 8], ['ja', 7], ['cs', 7], ['hu', 6], ['ro', 7], ['sk', 7]];
const SITES: [string, number][] = [['', 70], ['schleuniger', 12], ['komax-events', 8], ['brand-portal', 10]];
const BRAND = ' | Komax';

function generateCorpus(n: number): SearchDocument[] {
  const docs: SearchDocument[] = [];
  for (let i = 0; i < n; i++) {
    const language = weighted(LANGUAGE_SHARE);
    const site = weighted(SITES);
    const v = vocabularies.get(language)!;
    const titleWords = int(2, 7);
    const title = v.cjk
      ? Array.from({ length: titleWords }, () => word(v)).join('')
      : Array.from({ length: titleWords }, () => word(v)).join(' ');
    // Bodies: most pages short to medium, a long tail of long ones.
    const bodyWords = Math.round(60 + Math.min(1400, -Math.log(1 - rand()) * 220));
    docs.push({
      id: `p${i}`,
      url: `/${language}${site ? `/${site}` : ''}/page-${i}`,
      title: title + BRAND,
      description: rand() < 0.9 ? text(v, int(12, 32)) : '',
      body: text(v, bodyWords),
      site,
      locale: language,
      ...(rand() < 0.05 ? { countries: [pick(['CH', 'DE', 'US', 'CN', 'FR'])] } : {}),
    });
  }
  return docs;
}

// ---------------------------------------------------------------------------------------------
// Queries

type Kind = 'word' | 'typo' | 'prefix';
interface BenchQuery { kind: Kind; localeCode: string; siteSlug: string; query: string }

function typo(w: string): string {
  const chars = [...w];
  const i = int(1, chars.length - 2);
  const letters = 'abcdefghijklmnoprstuvz';
  switch (int(0, 2)) {
    case 0: chars[i] = pick([...letters]); break; // substitution
    case 1: chars.splice(i, 1); break; // deletion
    default: chars.splice(i, 0, pick([...letters])); break; // insertion
  }
  return chars.join('');
}

function generateQueries(docs: SearchDocument[], n: number): BenchQuery[] {
  const out: BenchQuery[] = [];
  while (out.length < n) {
    const d = docs[int(0, docs.length - 1)]!;
    const lang = d.locale as Language;
    const source = rand() < 0.5 ? d.title.replace(BRAND, '') : `${d.description} ${d.body.slice(0, 600)}`;
    const words = segment(source, lang).map((s) => s.surface).filter((w) => (lang === 'zh' || lang === 'ja') ? true : w.length >= 4 && !/\d/.test(w));
    if (!words.length) continue;
    const localeCode = rand() < 0.3 && lang !== 'zh' && lang !== 'ja' ? `${lang}-${pick(['CH', 'DE', 'US', 'FR'])}` : lang;
    const kind = weighted<Kind>([['word', 40], ['typo', 30], ['prefix', 30]]);
    const start = int(0, words.length - 1);
    let query: string;
    if (kind === 'word') {
      query = words.slice(start, start + int(1, 3)).join(lang === 'zh' || lang === 'ja' ? '' : ' ');
    } else if (kind === 'typo') {
      const w = words.find((x, i) => i >= start && [...x].length >= 5) ?? words.find((x) => [...x].length >= 5);
      if (!w || lang === 'zh' || lang === 'ja') continue;
      query = typo(w);
    } else {
      const w = words[start]!;
      query = [...w].slice(0, int(2, Math.max(2, Math.min(6, [...w].length)))).join('');
    }
    out.push({ kind, localeCode, siteSlug: d.site, query });
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Run

const percentile = (sorted: number[], p: number) => sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]! : NaN;
const ms = (x: number) => `${x.toFixed(x < 10 ? 2 : 0)} ms`;
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
const BUDGET = Number(process.env.SEARCH_MEMORY_BUDGET ?? DEFAULT_MEMORY_BUDGET);
const memory = () => {
  const m = process.memoryUsage();
  return { heap: m.heapUsed, buffers: m.arrayBuffers, total: m.heapUsed + m.arrayBuffers };
};
const memLine = (m: ReturnType<typeof memory>, base: ReturnType<typeof memory>) =>
  `${mb(m.total)} = heap ${mb(m.heap)} + buffers ${mb(m.buffers)} (indexes: ${mb(m.total - base.total)})`;

/** CPU milliseconds of each query, sorted (filled by timeAll): on a shared machine, what the wall times cannot show. */
const cpuTimes = new Map<string, number[]>();

async function timeAll(label: string, queries: BenchQuery[], fn: (q: BenchQuery) => Promise<number>): Promise<Map<Kind | 'all', number[]>> {
  const times = new Map<Kind | 'all', number[]>([['all', []], ['word', []], ['typo', []], ['prefix', []]]);
  const cpu: number[] = [];
  cpuTimes.set(label, cpu);
  const slow: { dt: number; q: BenchQuery; total: number }[] = [];
  for (const q of queries) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    const total = await fn(q);
    const dt = performance.now() - t0;
    const c = process.cpuUsage(c0);
    cpu.push((c.user + c.system) / 1000);
    times.get('all')!.push(dt);
    times.get(q.kind)!.push(dt);
    if (VERBOSE) slow.push({ dt, q, total });
  }
  for (const list of times.values()) list.sort((a, b) => a - b);
  cpu.sort((a, b) => a - b);
  if (VERBOSE) {
    slow.sort((a, b) => b.dt - a.dt);
    for (const s of slow.slice(0, 15)) console.log(`${label} ${ms(s.dt)} ${s.q.kind} ${s.q.localeCode}/${s.q.siteSlug || '_main'} "${s.q.query}" → ${s.total}`);
  }
  return times;
}

async function main() {
  const dir = process.env.BENCH_DIR ?? (await mkdtemp(join(tmpdir(), 'bench-search-')));
  try {
    const tGen = performance.now();
    const docs = generateCorpus(DOCS);
    const genSeconds = (performance.now() - tGen) / 1000;
    const rawBytes = docs.reduce((n, d) => n + d.title.length + d.description.length + d.body.length, 0);
    const queries = generateQueries(docs, QUERIES + WARMUP);

    gc();
    // The machine's load average when a phase starts: figures of a busy machine say so.
    const load = () => loadavg()[0]!.toFixed(1);
    const loadBuild = load();
    const tBuild = performance.now();
    const cpuBuild = process.cpuUsage();
    const cpuMain = process.threadCpuUsage();
    const indexes = await buildIndexesInThreads(docs, { threads: THREADS });
    const buildSeconds = (performance.now() - tBuild) / 1000;
    const { user, system } = process.cpuUsage(cpuBuild);
    const buildCpuSeconds = (user + system) / 1e6;
    const main = process.threadCpuUsage(cpuMain);
    // This thread's CPU (grouping the documents, its share of the indexes) and the others' on
    // average: on an idle machine the build takes about the larger of the two.
    const mainCpuSeconds = (main.user + main.system) / 1e6;
    const otherCpuSeconds = THREADS > 1 ? (buildCpuSeconds - mainCpuSeconds) / (THREADS - 1) : 0;
    const manifest = await writeIndexes(dir, indexes);
    const bytes = manifest.indexes.reduce((n, i) => n + i.bytes, 0);
    const largest = manifest.indexes.reduce((a, b) => (b.bytes > a.bytes ? b : a));
    indexes.clear();
    docs.length = 0;

    gc();
    const before = memory();
    const backend = new EmbeddedBackend(dir, { memoryBudget: BUDGET });
    const tOpen = performance.now();
    await backend.open();
    const openMs = performance.now() - tOpen;

    // First query of each index, cold (it loads the index): what a search after a release or an
    // eviction waits for.
    const cold: number[] = [];
    const tLoad = performance.now();
    for (const entry of manifest.indexes) {
      const [site, lang] = entry.key.split('/') as [string, string];
      const t0 = performance.now();
      await backend.search({ localeCode: lang, siteSlug: site === '_main' ? '' : site, query: 'x' });
      cold.push(performance.now() - t0);
    }
    const loadMs = performance.now() - tLoad;
    cold.sort((a, b) => a - b);
    gc();
    const afterLoad = memory();
    const loadedAfterLoad = backend.stats().loaded;

    const warm = queries.slice(0, WARMUP);
    const measured = queries.slice(WARMUP);
    for (const q of warm) { await backend.search(q); await backend.suggest(q); }

    const loadQueries = load();
    let found = 0;
    let suggested = 0;
    const search = await timeAll('search', measured, async (q) => {
      const r = await backend.search(q);
      if (r.total) found++;
      return r.total;
    });
    const suggest = await timeAll('suggest', measured, async (q) => {
      const r = await backend.suggest(q);
      if (r.records.length) suggested++;
      return r.total;
    });

    const line = (label: string, value: string) => console.log(`| ${label.padEnd(34)} | ${value.padEnd(72)} |`);
    const pp = (m: Map<string, number[]>, k: string) => `${ms(percentile(m.get(k)!, 50))} / ${ms(percentile(m.get(k)!, 95))}`;
    gc();
    const afterQueries = memory();
    console.log(`\nSite search benchmark (embedded MiniSearch), Node ${process.version}, seed ${SEED}, budget ${mb(BUDGET)}\n`);
    line('metric', 'value');
    console.log(`|${'-'.repeat(36)}|${'-'.repeat(74)}|`);
    line('corpus', `${DOCS.toLocaleString('en')} pages, ${mb(rawBytes)} text, ${manifest.indexes.length} indexes (generated in ${genSeconds.toFixed(1)} s)`);
    // CPU time beside the wall time: on a shared machine the wall time also counts the waits for a core.
    line('build time', `${buildSeconds.toFixed(1)} s (CPU ${buildCpuSeconds.toFixed(1)} s; ${THREADS} thread${THREADS === 1 ? '' : 's'}: this ${mainCpuSeconds.toFixed(1)} s${THREADS > 1 ? `, others ${otherCpuSeconds.toFixed(1)} s each` : ''}; load ${loadBuild})`);
    line('index size (sum of files)', `${bytes.toLocaleString('en')} bytes (${mb(bytes)}); largest ${largest.key} ${mb(largest.bytes)}`);
    line('open time (manifest)', ms(openMs));
    line('load time (every index, one by one)', `${ms(loadMs)}; ${loadedAfterLoad} of ${manifest.indexes.length} in memory after`);
    line('first query of a cold index', `p50 ${ms(percentile(cold, 50))}, p95 ${ms(percentile(cold, 95))}, max ${ms(cold.at(-1)!)}`);
    line('memory after loading all', memLine(afterLoad, before));
    line(`memory after ${measured.length * 2} queries`, `${memLine(afterQueries, before)}; ${backend.stats().loaded} loaded`);
    line(`search p50 / p95 (${measured.length} queries)`, `${pp(search, 'all')}  (target p95 < 5 ms)`);
    line('  words / typos / prefixes p95', `${ms(percentile(search.get('word')!, 95))} / ${ms(percentile(search.get('typo')!, 95))} / ${ms(percentile(search.get('prefix')!, 95))}`);
    line(`suggest p50 / p95 (${measured.length} queries)`, `${pp(suggest, 'all')}  (target p95 < 2 ms)`);
    line('  words / typos / prefixes p95', `${ms(percentile(suggest.get('word')!, 95))} / ${ms(percentile(suggest.get('typo')!, 95))} / ${ms(percentile(suggest.get('prefix')!, 95))}`);
    const cpuP = (label: string) => `${ms(percentile(cpuTimes.get(label)!, 50))} / ${ms(percentile(cpuTimes.get(label)!, 95))}`;
    line('CPU per query p50 / p95', `search ${cpuP('search')}, suggest ${cpuP('suggest')} (load ${loadQueries} → ${load()})`);
    line('queries with results', `search ${found}, suggest ${suggested} of ${measured.length}`);
    line('max search / suggest', `${ms(search.get('all')!.at(-1)!)} / ${ms(suggest.get('all')!.at(-1)!)}`);
    console.log(`\n(${WARMUP} warm-up queries not counted; mix ${(['word', 'typo', 'prefix'] as const).map((k) => `${search.get(k)!.length} ${k}`).join(', ')})`);
  } finally {
    if (!process.env.BENCH_DIR) await rm(dir, { recursive: true, force: true });
  }
}

await main();
