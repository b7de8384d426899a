export * from './sm_wasm.js';
export { default } from './sm_wasm.js';

/** Every failure of a call is thrown as an SmError; `code` is stable, `message` is not. */
export class SmError extends Error {
  constructor(code: string, message: string);
  readonly code: string;
}
