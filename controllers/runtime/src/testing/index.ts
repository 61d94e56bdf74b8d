// What the controllers' unit tests share of the kit: stand-ins that keep the kit's own decisions.
export { decidingBinding } from './deciding-binding.js';
