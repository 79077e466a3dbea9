// Test helper: a real redis-server for the shared-state tests (the code is shared with npm run start:edge).
export { REDIS_SERVER_PATHS, findRedisServer, ensureRedisServer, freePort, startRedis, type RedisServerChoice, type RunningRedis } from '../../scripts/redis.ts';
