// The built server entry: everything @astrojs/node exports, plus the App and the build id.
import { createApp } from 'astro/app/entrypoint';

export * from '@astrojs/node/server.js';

export const app = createApp({ streaming: false });
export const buildId: string = import.meta.env.APP_BUILD_ID;
