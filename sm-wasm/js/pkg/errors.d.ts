export { SmError } from './index.js';
export function smError(code: string, message: string): Error;
