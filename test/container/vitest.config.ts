// The container image's test (image.test.ts), apart from `npm test`: it needs root, podman and an
// image built by .ci/container (npm run test:container).
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: { root: new URL('../..', import.meta.url).pathname, include: ['test/container/**/*.test.ts'], testTimeout: 60_000, hookTimeout: 300_000, fileParallelism: false },
});
