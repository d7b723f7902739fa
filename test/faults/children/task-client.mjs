// A host process that starts one task and keeps following it until it is killed: a client on the
// built package (dist/), over Streamable HTTP to argv[2], with its task records in the JSON file
// argv[3]. Prints {"taskId": …} once the record is written, so the test can SIGKILL it mid-task.
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { McpClient, StreamableHttpTransport } from '../../../dist/index.js';

const [url, file] = process.argv.slice(2);

/** A TaskStore over one JSON file, written whole (and renamed into place) on every change. */
const read = () => {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return {};
  }
};
const write = (records) => {
  writeFileSync(`${file}.tmp`, JSON.stringify(records));
  renameSync(`${file}.tmp`, file);
};
const store = {
  get: (key) => read()[key],
  set: (key, record) => write({ ...read(), [key]: record }),
  delete: (key) => {
    const records = read();
    delete records[key];
    write(records);
  },
  keys: (prefix) => Object.keys(read()).filter((key) => key.startsWith(prefix)),
};

const client = new McpClient({
  transport: new StreamableHttpTransport(url),
  clientInfo: { name: 'task-host', version: '0.0.0' },
  tasks: { store, push: false },
});
await client.connect();
let told = false;
client
  .callTool(
    'go',
    {},
    {
      onTask: (task) => {
        if (told) return;
        told = true;
        process.stdout.write(JSON.stringify({ taskId: task.taskId }) + '\n');
      },
    },
  )
  .then(
    () => process.stdout.write(JSON.stringify({ done: true }) + '\n'),
    (error) => process.stdout.write(JSON.stringify({ error: String(error) }) + '\n'),
  );
