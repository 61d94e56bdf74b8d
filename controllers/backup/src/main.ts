// The backup controller's own process: its settings from the environment (parsed once), then its start (start.ts).
// Exits 0 after SIGTERM/SIGINT (reconciles finished, lease released), 1 when leadership is lost or startup fails.
import { runControllerProcess, runMain } from '@zk-oam/runtime';
import { backupController } from './start.js';

await runMain(backupController.names.name, () => runControllerProcess(backupController));
