// Public surface of the manager package for tests: the controllers it can run and how CONTROLLERS is read.
export { CONTROLLER_MODULES, CONTROLLER_NAMES, type ControllerName } from './controllers.js';
export { controllerEnv, managerEnvSchema, type ManagerEnv } from './manager-env.js';
