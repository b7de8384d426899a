// Node entry: instantiates the module from the file next to this one, synchronously.
import { readFileSync } from 'node:fs';
import { initSync } from './sm_wasm.js';

initSync({ module: readFileSync(new URL('./sm_wasm_bg.wasm', import.meta.url)) });

export * from './sm_wasm.js';
export { SmError } from './errors.js';
