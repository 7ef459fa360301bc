// Loaded with `node --import`: records every package and module of ours a process resolves, one per line, in $PINVOICE_TRACE_FILE.
import { register } from 'node:module';

register(new URL('./trace-imports-hooks.mjs', import.meta.url), { data: { file: process.env.PINVOICE_TRACE_FILE } });
