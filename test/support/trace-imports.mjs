// Loaded with `node --import`: records every package and module of ours a process loads, one per line, in
// $PINVOICE_TRACE_FILE. The ES-module loader's resolve hook (trace-imports-hooks.mjs, on the loader's
// thread) sees `import`; it never sees require() and createRequire() (commander, chalk and qrcode are
// loaded so), which go through Module._load on this thread: that is wrapped here, the same bare name
// written for a package either way.
import { appendFileSync } from 'node:fs';
import Module, { isBuiltin, register } from 'node:module';

const file = process.env.PINVOICE_TRACE_FILE;
register(new URL('./trace-imports-hooks.mjs', import.meta.url), { data: { file } });

const load = Module._load;
Module._load = function traced(request, ...rest) {
  if (file && !request.startsWith('.') && !request.startsWith('/') && !request.startsWith('file:') && !isBuiltin(request)) {
    appendFileSync(file, `${request}\n`);
  }
  return load.call(this, request, ...rest);
};
