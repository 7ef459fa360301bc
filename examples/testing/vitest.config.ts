// vitest runs the suite in vitest/ only (jest/ and node-test/ are the same checks for the other runners).
import { defineConfig } from 'vitest/config';

export default defineConfig({ test: { include: ['vitest/**/*.test.ts'] } });
