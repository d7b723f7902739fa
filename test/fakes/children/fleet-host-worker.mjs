// One worker of a host fleet, as its own process: an McpHost on the built package (dist/) with
// one shared HTTP server and a RedisHostStateStore, serving user scopes. Driven by JSON lines on
// stdin; answers and events are JSON lines on stdout.
//
//   node fleet-host-worker.mjs '{"notesUrl":..., "redisUrl":..., "prefix":...}'
//
// Commands: {"id", "op": "cut", "user", "tag"} → {"id", "artifact"} (notes__big through a tool session)
//           {"id", "op": "page", "user", "artifact", "offset"} → {"id", "text", "footer"}
//           {"id", "op": "call", "user", "tool", "args"} → {"id", "text"} or {"id", "error"}
//           {"id", "op": "task", "user", "args"} → example__generate_report as a task (needs "exampleUrl":
//           the example server, its tasks in a RedisTaskStore under "taskPrefix", its approval answered
//           here with the note "from A")
// Events: {"event": "ready"}; {"event": "pending", "pending"} when a call waits for its approval;
//         {"event": "task", "taskId", "status"} for each status of a task.
import { createInterface } from 'node:readline';
import { Redis } from 'ioredis';
import { McpHost, storedApproval } from '../../../dist/host.js';
import { RedisHostStateStore, RedisTaskStore } from '../../../dist/redis.js';

const config = JSON.parse(process.argv[2]);
const write = (message) => process.stdout.write(`${JSON.stringify(message)}\n`);

const client = new Redis(config.redisUrl, { maxRetriesPerRequest: 1 });
client.on('error', () => {});
const state = new RedisHostStateStore({ client, prefix: config.prefix });
const servers = { notes: { type: 'http', url: config.notesUrl, client: { reconnect: false } } };
if (config.exampleUrl !== undefined)
  servers.example = {
    type: 'http',
    url: config.exampleUrl,
    client: {
      reconnect: false,
      tasks: { store: new RedisTaskStore({ client, prefix: config.taskPrefix }), poll: { minMs: 10 } },
      handlers: {
        elicitation: { form: async () => ({ action: 'accept', content: { approve: true, note: 'from A' } }) },
      },
    },
  };
const host = new McpHost({
  clientInfo: { name: 'fleet-worker-process', version: '0.0.0' },
  servers,
  contextBudget: { maxResultTokens: 200 },
  state,
});
await host.connect();
const scopes = new Map();
const scopeOf = (user) => {
  let scope = scopes.get(user);
  if (scope === undefined) {
    // Only the destructive tool waits for the user; the rest run.
    const asked = storedApproval(state, { user, notify: (pending) => write({ event: 'pending', pending }) });
    scope = host.forUser(user, {
      approve: (call, context) => (call.name === 'delete_note' ? asked(call, context) : 'allow'),
    });
    scopes.set(user, scope);
  }
  return scope;
};
write({ event: 'ready' });

for await (const line of createInterface({ input: process.stdin })) {
  const command = JSON.parse(line);
  const scope = scopeOf(command.user);
  const run = async () => {
    switch (command.op) {
      case 'cut': {
        const outcome = await scope.toolSession().callTool('notes__big', { tag: command.tag });
        return { artifact: outcome.artifact?.id };
      }
      case 'page': {
        const page = await scope
          .toolSession()
          .callTool('read_artifact', { id: command.artifact, offset: command.offset });
        const [body, footer] = page.result.content;
        return { text: body.text, footer: footer?.text };
      }
      case 'call':
        return scope.callTool(command.tool, command.args).then(
          (result) => ({ text: result.content[0].text }),
          (error) => ({ error: error.message }),
        );
      case 'task':
        return scope
          .callTool('example__generate_report', command.args, {
            onTask: (task) => write({ event: 'task', taskId: task.taskId, status: task.status }),
          })
          .then(
            (result) => ({ text: result.content[0].text }),
            (error) => ({ error: error.message }),
          );
      default:
        return { error: `unknown op ${command.op}` };
    }
  };
  // Each command answers when it is done; a call waiting for its approval does not hold the others.
  void run().then((answer) => write({ id: command.id, ...answer }));
}
