// Browser / bundler entry: instantiates the module (fetched next to this file) at import time.
import init from './sm_wasm.js';

await init({ module_or_path: new URL('./sm_wasm_bg.wasm', import.meta.url) });

export * from './sm_wasm.js';
export { SmError } from './errors.js';
