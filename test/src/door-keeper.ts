// `npm run cluster:up`'s door keeper, run outside the bed's network namespace: opens a loopback port for each door the
// bed daemon serves (.cluster/doors.json), writes the ports it got (.cluster/open-doors.json), and holds them until
// SIGTERM (`npm run cluster:down`).
import { readFileSync, writeFileSync } from 'node:fs';
import { z } from 'zod';
import { openDoor, portOf } from './bed/door.js';
import { clusterFiles, doorSchema } from './cluster-files.js';

const doors = z.array(doorSchema).parse(JSON.parse(readFileSync(clusterFiles.doors, 'utf8')));
const servers = await Promise.all(doors.map(async (door) => ({ name: door.name, server: await openDoor(door.socket, door.port) })));
writeFileSync(clusterFiles.openDoors, `${JSON.stringify(Object.fromEntries(servers.map(({ name, server }) => [name, portOf(server)])), null, 2)}\n`);
const close = (): void => {
  for (const { server } of servers) server.close();
  process.exit(0);
};
process.once('SIGTERM', close);
process.once('SIGINT', close);
