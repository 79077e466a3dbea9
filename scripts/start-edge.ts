// npm run start:edge: what npm start does (emulators unless configured, the app built when its
// sources changed, an incremental prerender), then WORKERS Node instances (default: one per core)
// on loopback, Redis shared by them (REDIS_URL, else Debian's redis-server on loopback), and
// nginx in front on PORT (4321), configured from the live release (src/server/edge/).
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { printSiteAddresses } from './local.ts';
import { prepareLocal, printLocalHints, StartError } from './start.ts';
import { ensureRedisServer, startRedis, type RunningRedis } from './redis.ts';
import { ensureNginx } from './system-package.ts';
import { startCluster } from './edge.ts';
import { EnvError } from '../src/server/boot/env.ts';
import { servingPreviousMessage } from '../src/server/boot/startup.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

async function main() {
  const nginxPath = ensureNginx();
  const { env, dist, emulators, hubDown, localEditor } = await prepareLocal();
  const workers = env.WORKERS ?? availableParallelism();
  let redis: RunningRedis | null = null;
  if (!env.REDIS_URL) {
    const server = ensureRedisServer();
    if ('skip' in server) throw new StartError('start:edge needs Redis for the state its instances share: set REDIS_URL, or install the Debian package "redis-server"');
    redis = await startRedis(server.path);
  }
  const redisUrl = env.REDIS_URL ?? redis!.url;
  const cluster = await startCluster({
    root, dist, nginxPath, prefix: join(root, '.edge', String(env.PORT)),
    host: env.HOST, port: env.PORT, workers,
    env: { REDIS_URL: redisUrl },
  });
  console.log(`\nKomax web platform on http://localhost:${env.PORT} (nginx in front of ${workers} Node instance${workers === 1 ? '' : 's'} on ports ${cluster.instances.map((i) => i.port).join(', ')}; Redis ${redisUrl}; release ${cluster.edge.release ?? '(none yet)'}; precompressed ${cluster.edge.brotli ? 'br and gzip' : 'gzip only: no nginx brotli module'})`);
  if (hubDown) console.warn(servingPreviousMessage(env, hubDown));
  await printSiteAddresses(env, env.PORT, !!hubDown);
  printLocalHints(env.PORT, localEditor);

  // An instance that exits (killed, crashed) is started again; nginx sends its requests to the others meanwhile.
  let stopping = false;
  for (const instance of cluster.instances) {
    const watchExit = (i: typeof instance) => void i.exited.then(async () => {
      if (stopping) return;
      console.warn(`instance on port ${i.port} exited (${i.process.exitCode ?? i.process.signalCode}); starting it again`);
      const again = cluster.respawn(i.port);
      cluster.instances[cluster.instances.indexOf(i)] = again;
      watchExit(again);
    });
    watchExit(instance);
  }
  const stop = async () => {
    stopping = true;
    await cluster.close();
    await redis?.stop();
    await emulators?.close();
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((err) => {
  console.error(err instanceof EnvError || err instanceof StartError ? err.message : err);
  process.exit(1);
});
