// The ticketing emulator: a GraphQL API (graphql-yoga) over SQLite, trusting only identity tokens of
// the identity provider, scoping everything to the caller's organisation, with attachments streamed to
// disk. Routes: POST/GET /graphql, GET /attachments/{id}, GET /downloads/wire-flow/{package}/{version},
// GET /health. Schema and conventions: schema.graphql and README.md.
import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readFileSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import type { DocumentNode } from 'graphql';
import { createSchema, createYoga } from 'graphql-yoga';
import * as v from 'valibot';
import { fingerprintOf, IDEMPOTENCY_REFUSALS, IdempotencyKeys, idempotencyKeyOf, type KeptAnswer } from '../shared/idempotency.ts';
import { IDENTITY_TOKEN_HEADER, IdentityUnavailable, tokenVerifier, Unauthenticated, type Caller } from './auth.ts';
import { MultipartError, multipartBoundary, readMultipart, readTextPart } from './multipart.ts';
import { createResolvers, ONPREM_ROLE, type TicketingContext } from './resolvers.ts';
import { demoPackageBytes, TicketingStore, type Contact } from './store.ts';
import { discardStaged, MAX_FILES_PER_REQUEST, MAX_UPLOAD_BYTES, stageFile, UploadRefused, type StagedFile } from './uploads.ts';

const here = dirname(fileURLToPath(import.meta.url));
/** The ticketing SDL (what the emulator serves). */
export const TICKETING_TYPE_DEFS: string = readFileSync(join(here, 'schema.graphql'), 'utf8');
/** The demo data an empty store is filled from. */
export const TICKETING_SEED_DIR = join(here, '../data/ticketing');

export const DEBUG_LEVEL_HEADER = 'x-debug-level';
/** Spec §9 log levels (none 0 … debug 100). */
export const DEBUG_LEVELS = { none: 0, error: 25, warn: 50, info: 75, debug: 100 } as const;
export type DebugLevel = keyof typeof DEBUG_LEVELS;
/** Spec §9: logged request variables are cut to 50 characters. */
const LOGGED_VARIABLES_CHARS = 50;
const MAX_JSON_FIELD_BYTES = 1024 * 1024;

export interface TicketingOptions {
  /** Port on 127.0.0.1; 0 picks a free one. */
  port: number;
  /** The identity provider's issuer, whose tokens (aud `audience`) are accepted. */
  issuer: string;
  /** Default kmx-web. */
  audience?: string;
  /** Where ticketing.sqlite, attachments/ and the staging folder live (created when missing). */
  dataDir: string;
  /** The seed of an empty store; emulators/data/ticketing by default. */
  seedDir?: string;
  /** The log level of requests without an `x-debug-level` header (default warn; `quiet` makes it none). */
  logLevel?: DebugLevel;
  quiet?: boolean;
  /** Where log lines go (default stderr). */
  log?: (line: string) => void;
}

export interface RunningTicketing {
  server: Server;
  /** http://127.0.0.1:<port>/graphql */
  url: string;
  origin: string;
  store: TicketingStore;
  dataDir: string;
  close(): Promise<void>;
}

const GraphQLBody = v.object({ query: v.string(), operationName: v.nullish(v.string()), variables: v.nullish(v.record(v.string(), v.unknown())) });
const FileMap = v.record(v.string(), v.pipe(v.array(v.string()), v.minLength(1)));

/** The level a request asked for (`x-debug-level`), or the default for an absent or unknown value. */
export function debugLevelOf(header: string | string[] | undefined, fallback: DebugLevel): DebugLevel {
  const value = (Array.isArray(header) ? header[0] : header)?.trim().toLowerCase();
  return value && value in DEBUG_LEVELS ? (value as DebugLevel) : fallback;
}

export type Logger = (level: Exclude<DebugLevel, 'none'>, message: string) => void;

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text), 'cache-control': 'no-store', ...headers });
  res.end(text);
}

const graphqlError = (code: string, message: string) => ({ errors: [{ message, extensions: { code } }] });

/** `attachment; filename="…"; filename*=UTF-8''…` with an ASCII fallback. */
export function contentDisposition(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)}`;
}

/**
 * Puts `value` at a multipart map path such as `variables.input.attachments.1` (the place must exist
 * and hold null, as the convention asks of the client).
 */
function setPath(operations: Record<string, unknown>, path: string, value: unknown): void {
  const keys = path.split('.');
  if (keys[0] !== 'variables' || keys.length < 2 || keys.some((k) => k === '__proto__' || k === 'constructor' || k === 'prototype')) {
    throw new MultipartError(`map path "${path}" does not point into the variables`);
  }
  let target: unknown = operations;
  for (const key of keys.slice(0, -1)) {
    target = typeof target === 'object' && target !== null && Object.hasOwn(target, key) ? (target as Record<string, unknown>)[key] : undefined;
  }
  const last = keys.at(-1)!;
  if (typeof target !== 'object' || target === null || !Object.hasOwn(target, last) || (target as Record<string, unknown>)[last] !== null) {
    throw new MultipartError(`map path "${path}" does not name a null placeholder in the variables`);
  }
  (target as Record<string, unknown>)[last] = value;
}

async function readAll(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Starts the ticketing emulator; resolves once it listens on 127.0.0.1. */
export async function startTicketing(opts: TicketingOptions): Promise<RunningTicketing> {
  const store = new TicketingStore(opts.dataDir);
  store.seed(opts.seedDir ?? TICKETING_SEED_DIR);
  const attachmentsDir = join(opts.dataDir, 'attachments');
  const stagingDir = join(opts.dataDir, 'staging');
  const defaultLevel: DebugLevel = opts.logLevel ?? (opts.quiet ? 'none' : 'warn');
  const sink = opts.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const verifier = tokenVerifier({ issuer: opts.issuer, audience: opts.audience });
  // Writes sent with an Idempotency-Key happen once per key and caller; a repeat gets the first answer (24 h).
  const keys = new IdempotencyKeys(store.db);
  let origin = '';

  const yoga = createYoga<{ ticketing: TicketingContext }, TicketingContext>({
    schema: createSchema<TicketingContext & { ticketing: TicketingContext }>({
      typeDefs: TICKETING_TYPE_DEFS,
      resolvers: createResolvers({ store, abs: (path) => `${origin}${path}`, attachmentsDir }),
    }),
    context: ({ ticketing }) => ticketing,
    graphqlEndpoint: '/graphql',
    landingPage: false,
    graphiql: false,
    cors: false,
    logging: false,
    // Uploads never reach yoga: the multipart handler below streams them (yoga would buffer them).
    multipart: false,
    plugins: [{
      // At debug level: the operation and its variables, cut to 50 characters (spec §9).
      onExecute: ({ args }: { args: { contextValue: unknown; document: DocumentNode; operationName?: string | null; variableValues?: unknown } }) => {
        const { log } = args.contextValue as TicketingContext;
        const operation = args.operationName ?? args.document.definitions.find((d) => d.kind === 'OperationDefinition')?.name?.value;
        log?.('debug', `${operation ?? '(anonymous)'} ${JSON.stringify(args.variableValues ?? {}).slice(0, LOGGED_VARIABLES_CHARS)}`);
      },
    }],
  });

  const loggerFor = (req: IncomingMessage): Logger => {
    const level = DEBUG_LEVELS[debugLevelOf(req.headers[DEBUG_LEVEL_HEADER], defaultLevel)];
    return (at, message) => {
      if (DEBUG_LEVELS[at] <= level) sink(`[ticketing] ${at} ${message}`);
    };
  };

  /** The verified caller and their contact, or an answer already sent (401/503). */
  const authenticate = async (req: IncomingMessage, res: ServerResponse, log: Logger, graphql: boolean): Promise<{ caller: Caller; contact: Contact | undefined } | null> => {
    const header = req.headers[IDENTITY_TOKEN_HEADER];
    try {
      const caller = await verifier.verify(Array.isArray(header) ? header[0] : header);
      const contact = store.contactOf(caller.sub, caller.email);
      log('debug', `caller ${caller.sub} contact ${contact?.id ?? '(none)'}`);
      return { caller, contact };
    } catch (err) {
      if (err instanceof Unauthenticated) {
        log('info', `refused: ${err.message}`);
        const message = `A valid identity token is required in the ${IDENTITY_TOKEN_HEADER} header`;
        sendJson(res, 401, graphql ? graphqlError('UNAUTHENTICATED', message) : { error: 'unauthenticated', message });
        return null;
      }
      if (err instanceof IdentityUnavailable) {
        log('error', err.message);
        const message = 'The identity provider cannot be reached to check the token';
        sendJson(res, 503, graphql ? graphqlError('IDENTITY_UNAVAILABLE', message) : { error: 'identity_unavailable', message });
        return null;
      }
      throw err;
    }
  };

  /** Answers a request that is still arriving: the answer goes out at once, the rest of the body is read and dropped (bounded). */
  const refuseWhileReading = (req: IncomingMessage, res: ServerResponse, status: number, body: unknown) => {
    sendJson(res, status, body, { connection: 'close' });
    let dropped = 0;
    req.on('data', (chunk: Buffer) => {
      dropped += chunk.length;
      if (dropped > 2 * MAX_UPLOAD_BYTES) req.destroy();
    });
    req.resume();
  };

  const sendFetchResponse = async (res: ServerResponse, response: Response) => {
    // GraphQL answers here are single JSON documents (no subscriptions, no @defer): small enough to send whole.
    const body = Buffer.from(await response.arrayBuffer());
    res.statusCode = response.status;
    response.headers.forEach((value, key) => res.setHeader(key, value));
    res.setHeader('content-length', body.length);
    res.end(body);
  };

  /** A GraphQL answer that settles its key: 200 without top-level errors (field errors of a payload included: the same input gets them again). */
  const settles = (a: KeptAnswer) => {
    if (a.status !== 200) return false;
    try {
      return !(JSON.parse(a.body) as { errors?: unknown[] }).errors?.length;
    } catch {
      return false;
    }
  };

  /**
   * Runs one GraphQL request, once per Idempotency-Key when it carries one (`fingerprint`: what
   * the request asks for), and gives back how to answer it: the first answer to a repeat, 409
   * while the first still runs, 422 for the key with another request.
   */
  const runOnce = async (res: ServerResponse, caller: Caller, key: string | null, fingerprint: () => string, run: () => Response | Promise<Response>, log: Logger): Promise<() => void | Promise<void>> => {
    if (!key) {
      const response = await run();
      return () => sendFetchResponse(res, response);
    }
    const outcome = await keys.once(caller.sub, key, fingerprint(), async () => {
      const response = await run();
      return { status: response.status, body: await response.text() };
    }, settles);
    if (outcome.kind === 'in-progress' || outcome.kind === 'mismatch') {
      const refusal = IDEMPOTENCY_REFUSALS[outcome.kind];
      log('info', `idempotency key ${outcome.kind}`);
      const body = graphqlError(outcome.kind === 'mismatch' ? 'IDEMPOTENCY_KEY_REUSED' : 'IDEMPOTENCY_KEY_IN_USE', refusal.message);
      return () => sendJson(res, refusal.status, body, outcome.kind === 'in-progress' ? { 'retry-after': '1' } : {});
    }
    if (outcome.kind === 'replayed') log('info', 'idempotency key seen before: the first answer again');
    const { status, body } = outcome.answer;
    return () => sendJson(res, status, JSON.parse(body || 'null'), outcome.kind === 'replayed' ? { 'idempotent-replayed': 'true' } : {});
  };

  /** The GraphQL multipart request convention, streamed: operations, map, then each file straight to disk. */
  const multipart = async (req: IncomingMessage, res: ServerResponse, boundary: string, ticketing: Omit<TicketingContext, 'staged' | 'log'>, key: string | null, log: Logger) => {
    const declared = Number(req.headers['content-length'] ?? NaN);
    if (declared > MAX_FILES_PER_REQUEST * MAX_UPLOAD_BYTES + 2 * MAX_JSON_FIELD_BYTES) {
      refuseWhileReading(req, res, 413, graphqlError('FILE_TOO_LARGE', 'The request is larger than the files it may carry (100 MB each)'));
      return;
    }
    const staged = new Map<string, StagedFile>();
    let answer: () => void | Promise<void>;
    try {
      let operations: Record<string, unknown> | undefined;
      let map: Record<string, string[]> | undefined;
      // What the request asks for, for its idempotency key: the operations and map as sent, each file's name, type and size.
      const asked: string[] = [];
      const pending = new Set<string>();
      for await (const { headers, body } of readMultipart(req.iterator({ destroyOnReturn: false }), boundary)) {
        if (!operations) {
          if (headers.name !== 'operations') throw new MultipartError('the first field must be "operations"');
          const text = await readTextPart(body, MAX_JSON_FIELD_BYTES, 'operations');
          asked.push(text);
          const parsed: unknown = JSON.parse(text);
          if (Array.isArray(parsed)) throw new MultipartError('batched operations are not supported');
          operations = v.parse(GraphQLBody, parsed) as Record<string, unknown>;
          continue;
        }
        if (!map) {
          if (headers.name !== 'map') throw new MultipartError('the second field must be "map"');
          const text = await readTextPart(body, MAX_JSON_FIELD_BYTES, 'map');
          asked.push(text);
          map = v.parse(FileMap, JSON.parse(text));
          if (Object.keys(map).length > MAX_FILES_PER_REQUEST) throw new MultipartError(`at most ${MAX_FILES_PER_REQUEST} files per request`);
          for (const key of Object.keys(map)) pending.add(key);
          continue;
        }
        if (!pending.delete(headers.name) || headers.filename === undefined) throw new MultipartError(`the field "${headers.name}" is not a file of the map`);
        log('debug', `receiving "${headers.filename}" (${headers.contentType || 'no type'})`);
        const file = await stageFile(body, { dir: stagingDir, fileName: headers.filename, declaredType: headers.contentType });
        const stagedKey = randomUUID();
        staged.set(stagedKey, file);
        asked.push(`${headers.name} ${file.fileName} ${file.contentType} ${file.size}`);
        for (const path of map[headers.name]!) setPath(operations, path, { $staged: stagedKey });
        log('info', `staged "${file.fileName}" ${file.contentType} ${file.size} bytes`);
      }
      if (!operations || !map) throw new MultipartError('the fields "operations" and "map" are required');
      if (pending.size) throw new MultipartError(`the files ${[...pending].map((k) => `"${k}"`).join(', ')} of the map are missing`);
      const ops = operations;
      const run = () => yoga.fetch(`${origin}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: req.headers.accept ?? 'application/graphql-response+json, application/json' },
        body: JSON.stringify(ops),
      }, { ticketing: { ...ticketing, staged, log } });
      answer = await runOnce(res, ticketing.caller, key, () => fingerprintOf('multipart', ...asked), run, log);
    } catch (err) {
      if (err instanceof UploadRefused) {
        log('info', `refused upload: ${err.message}`);
        answer = () => refuseWhileReading(req, res, err.status, graphqlError(err.code, err.message));
      } else if (err instanceof MultipartError || err instanceof SyntaxError || err instanceof v.ValiError) {
        log('info', `bad multipart request: ${err.message}`);
        answer = () => refuseWhileReading(req, res, 400, graphqlError('BAD_REQUEST', `Malformed multipart request: ${err.message}`));
      } else {
        throw err;
      }
    } finally {
      // Files no mutation took (a refused or failed request) are deleted before the answer goes out;
      // kept ones were renamed away.
      await discardStaged(staged.values());
    }
    await answer();
  };

  const graphql = async (req: IncomingMessage, res: ServerResponse, log: Logger) => {
    const who = await authenticate(req, res, log, true);
    if (!who) return;
    const key = req.method === 'POST' ? idempotencyKeyOf(req.headers) : null;
    if (key === 'malformed') {
      refuseWhileReading(req, res, 400, graphqlError('BAD_REQUEST', IDEMPOTENCY_REFUSALS.malformed.message));
      return;
    }
    const boundary = multipartBoundary(req.headers['content-type']);
    if (req.method === 'POST' && boundary) {
      if (!who.contact) {
        refuseWhileReading(req, res, 403, graphqlError('FORBIDDEN', 'You are not a contact of any customer organisation in the ticketing system'));
        return;
      }
      await multipart(req, res, boundary, who, key, log);
      return;
    }
    if (Number(req.headers['content-length'] ?? 0) > MAX_JSON_FIELD_BYTES) {
      refuseWhileReading(req, res, 413, graphqlError('BAD_REQUEST', `A GraphQL request without files may have at most ${MAX_JSON_FIELD_BYTES} bytes`));
      return;
    }
    const headers = Object.entries(req.headers).flatMap(([k, val]) => (val === undefined || k === 'host' ? [] : [[k, Array.isArray(val) ? val.join(', ') : val] as [string, string]]));
    // With a key the body is read first (at most 1 MiB, checked above): it is the request's fingerprint.
    const body = key ? await readAll(req) : null;
    const run = () => yoga.fetch(new Request(`${origin}${req.url}`, {
      method: req.method,
      headers,
      body: req.method === 'GET' || req.method === 'HEAD' ? undefined : body ?? (Readable.toWeb(req) as ReadableStream),
      duplex: 'half',
    } as RequestInit), { ticketing: { ...who, staged: new Map(), log } });
    await (await runOnce(res, who.caller, key, () => fingerprintOf('json', body ?? ''), run, log))();
  };

  const attachment = async (req: IncomingMessage, res: ServerResponse, id: string, log: Logger) => {
    const who = await authenticate(req, res, log, false);
    if (!who) return;
    const found = /^[\w-]{1,64}$/.test(id) ? store.attachment(id) : undefined;
    // Another organisation's attachment is answered exactly like a missing one.
    if (!found || found.organisationId !== who.contact?.organisationId) {
      sendJson(res, 404, { error: 'not_found', message: `No attachment ${id}` });
      return;
    }
    const path = join(attachmentsDir, found.id);
    const { size } = await stat(path);
    res.writeHead(200, {
      'content-type': found.contentType,
      'content-length': size,
      'content-disposition': contentDisposition(found.fileName),
      'x-content-type-options': 'nosniff',
      'cache-control': 'private, no-store',
    });
    if (req.method === 'HEAD') { res.end(); return; }
    await pipeline(createReadStream(path), res);
  };

  const download = async (req: IncomingMessage, res: ServerResponse, packageId: string, version: string, log: Logger) => {
    const who = await authenticate(req, res, log, false);
    if (!who) return;
    const found = store.softwareVersion(packageId, version);
    if (!found) {
      sendJson(res, 404, { error: 'not_found', message: 'No such package version' });
      return;
    }
    if (!(await who.caller.roles()).includes(ONPREM_ROLE)) {
      sendJson(res, 403, { error: 'forbidden', message: 'wire-flow packages are for on-premises users' });
      return;
    }
    const bytes = demoPackageBytes(found.packageId, found.version);
    res.writeHead(200, {
      'content-type': 'application/octet-stream',
      'content-length': bytes.length,
      'content-disposition': contentDisposition(found.fileName),
      'x-content-type-options': 'nosniff',
      'cache-control': 'private, no-store',
    });
    res.end(req.method === 'HEAD' ? undefined : bytes);
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const log = loggerFor(req);
    log('info', `${req.method} ${url.pathname}`);
    if (url.pathname === '/health') {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('ok');
      return;
    }
    if (url.pathname === '/graphql') {
      await graphql(req, res, log);
      return;
    }
    const get = req.method === 'GET' || req.method === 'HEAD';
    const att = /^\/attachments\/([^/]+)$/.exec(url.pathname);
    if (att && get) {
      await attachment(req, res, decodeURIComponent(att[1]!), log);
      return;
    }
    const dl = /^\/downloads\/wire-flow\/([^/]+)\/([^/]+)$/.exec(url.pathname);
    if (dl && get) {
      await download(req, res, decodeURIComponent(dl[1]!), decodeURIComponent(dl[2]!), log);
      return;
    }
    sendJson(res, att || dl ? 405 : 404, { error: att || dl ? 'method_not_allowed' : 'not_found' });
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      loggerFor(req)('error', `${req.method} ${req.url}: ${(err as Error).stack ?? String(err)}`);
      if (!res.headersSent) sendJson(res, 500, graphqlError('INTERNAL_SERVER_ERROR', 'Unexpected error'), { connection: 'close' });
      else res.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, '127.0.0.1', () => resolve());
  });
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  let closed: Promise<void> | undefined;
  return {
    server,
    url: `${origin}/graphql`,
    origin,
    store,
    dataDir: opts.dataDir,
    close: () => {
      closed ??= new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => { store.close(); resolve(); });
      });
      return closed;
    },
  };
}
