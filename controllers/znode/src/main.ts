// The znode controller's own process: its settings from the environment (parsed once), then its start (start.ts).
// Exits 0 after SIGTERM/SIGINT (reconciles finished, lease released), 1 when leadership is lost or startup fails.
import { runControllerProcess, runMain } from '@zk-oam/runtime';
import { znodeController } from './start.js';

await runMain(znodeController.names.name, () => runControllerProcess(znodeController));
