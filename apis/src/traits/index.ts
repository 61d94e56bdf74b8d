// What the traits agree on with the workload controller and with each other, on the workload's own objects.
export * from './binding.js';
export * from './disruption-lock.js';
